import { type BitReader, type BitWriter, category, extraBits } from "./bit-io";
import type { DecodeTable, EncodeTable } from "./huffman";

// One 8x8 block of quantised coefficients, zig-zag order, baseline coding.

export function decodeBlock(r: BitReader, dc: DecodeTable, ac: DecodeTable, out: Int16Array, at: number, pred: number): number {
  const t = r.decode(dc);
  const value = pred + r.receiveExtend(t);
  out[at] = value;
  for (let k = 1; k < 64; ) {
    const rs = r.decode(ac);
    const run = rs >> 4;
    const s = rs & 15;
    if (s === 0) {
      if (run !== 15) break;
      k += 16;
      continue;
    }
    k += run;
    if (k > 63) throw new Error("coefficient index out of range");
    out[at + k] = r.receiveExtend(s);
    k++;
  }
  return value;
}

export function encodeBlock(w: BitWriter, dc: EncodeTable, ac: EncodeTable, block: Int16Array, at: number, pred: number): void {
  const diff = block[at] - pred;
  const c = category(diff);
  w.symbol(dc, c);
  w.write(extraBits(diff, c), c);
  let run = 0;
  for (let k = 1; k < 64; k++) {
    const v = block[at + k];
    if (v === 0) {
      run++;
      continue;
    }
    while (run > 15) {
      w.symbol(ac, 0xf0);
      run -= 16;
    }
    const s = category(v);
    w.symbol(ac, (run << 4) | s);
    w.write(extraBits(v, s), s);
    run = 0;
  }
  if (run > 0) w.symbol(ac, 0);
}

/** Symbol frequencies of one block, for optimal tables. */
export function countBlock(dcFreq: Float64Array, acFreq: Float64Array, block: Int16Array, at: number, pred: number): void {
  dcFreq[category(block[at] - pred)]++;
  let run = 0;
  for (let k = 1; k < 64; k++) {
    const v = block[at + k];
    if (v === 0) {
      run++;
      continue;
    }
    while (run > 15) {
      acFreq[0xf0]++;
      run -= 16;
    }
    acFreq[(run << 4) | category(v)]++;
    run = 0;
  }
  if (run > 0) acFreq[0]++;
}
