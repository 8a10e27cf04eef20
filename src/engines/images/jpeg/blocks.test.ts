import { describe, expect, it } from "vitest";
import { BitReader, BitWriter } from "./bit-io";
import { countBlock, decodeBlock, encodeBlock } from "./blocks";
import { decodeTable, encodeTable, type HuffmanSpec, optimalSpec, STD_AC_LUMA, STD_DC_LUMA } from "./huffman";

// Baseline block coding round trips: every magnitude category, runs of every
// length (with ZRL), blocks ending in zeros or not, values whose code and
// extra bits fit the 9-bit lookahead (the decoder's fast AC path) and values
// that do not, through standard tables and through tables optimised for the
// blocks (short codes, so more of them take the fast path).

/** A fixed LCG, so every run tests the same blocks. */
function blocks(count: number): Int16Array {
  const out = new Int16Array(count * 64);
  let seed = 99;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >> 8) % n;
  };
  for (let b = 0; b < count; b++) {
    const at = b * 64;
    out[at] = next(2047) - 1023; // DC differences stay within category 11
    // How far the block goes, and how sparse: from all-zero AC to a full block.
    const last = b % 8 === 0 ? 0 : b % 8 === 1 ? 63 : 1 + next(63);
    const density = 1 + next(6);
    for (let k = 1; k <= last; k++) {
      if (k !== last && next(density) !== 0) continue;
      const category = 1 + next(b % 3 === 0 ? 10 : 3); // mostly small values, as in photos
      const magnitude = (1 << (category - 1)) + next(1 << (category - 1));
      out[at + k] = next(2) ? magnitude : -magnitude;
    }
  }
  return out;
}

function roundTrip(data: Int16Array, dc: HuffmanSpec, ac: HuffmanSpec): Int16Array {
  const w = new BitWriter(64);
  const [dcE, acE] = [encodeTable(dc), encodeTable(ac)];
  let pred = 0;
  for (let at = 0; at < data.length; at += 64) {
    encodeBlock(w, dcE, acE, data, at, pred);
    pred = data[at];
  }
  w.flush();
  const bytes = w.take();
  const r = new BitReader(bytes, 0);
  const [dcD, acD] = [decodeTable(dc), decodeTable(ac)];
  const out = new Int16Array(data.length);
  pred = 0;
  for (let at = 0; at < data.length; at += 64) pred = decodeBlock(r, dcD, acD, out, at, pred);
  return out;
}

describe("JPEG block coding", () => {
  const data = blocks(3000);

  it("decodes what it encodes with the standard tables", () => {
    expect(roundTrip(data, STD_DC_LUMA, STD_AC_LUMA)).toEqual(data);
  });

  it("decodes what it encodes with tables optimised for the blocks", () => {
    const dcFreq = new Float64Array(257);
    const acFreq = new Float64Array(257);
    let pred = 0;
    for (let at = 0; at < data.length; at += 64) {
      countBlock(dcFreq, acFreq, data, at, pred);
      pred = data[at];
    }
    const [dc, ac] = [optimalSpec(dcFreq), optimalSpec(acFreq)];
    expect(roundTrip(data, dc, ac)).toEqual(data);
  });

  it("takes the fast AC path for short codes and the slow one for the rest", () => {
    const fast = decodeTable(STD_AC_LUMA).fastAc;
    // 0x01 (run 0, one bit) has the 2-bit code 00: 00 then extra bit 1 is +1, 3 bits in all.
    expect(fast[0b001_000000]).toBe((1 << 12) | (0 << 4) | 3);
    expect(fast[0b000_000000]).toBe((-1 << 12) | (0 << 4) | 3);
    // EOB (1010) has no extra bits: the slow path.
    expect(fast[0b1010_00000]).toBe(0);
    // 0x0a (run 0, ten bits) cannot fit 9 bits with its extra bits.
    expect(fast.filter((e) => e !== 0).every((e) => (e & 15) <= 9)).toBe(true);
  });
});
