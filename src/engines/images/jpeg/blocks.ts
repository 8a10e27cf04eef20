import { type BitReader, type BitWriter, category, extraBits } from "./bit-io";
import type { DecodeTable, EncodeTable } from "./huffman";

// One 8x8 block of quantised coefficients, zig-zag order, baseline coding.

export function decodeBlock(r: BitReader, dc: DecodeTable, ac: DecodeTable, out: Int16Array, at: number, pred: number): number {
  const t = r.decode(dc);
  const value = pred + r.receiveExtend(t);
  out[at] = value;
  for (let k = 1; k < 64; ) {
    const fast = r.fastAc(ac);
    if (fast !== 0) {
      k += (fast >> 4) & 15;
      if (k > 63) throw new Error("coefficient index out of range");
      out[at + k] = fast >> 12;
      k++;
      continue;
    }
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
  // Trailing zeros are one EOB: find the last non-zero coefficient first.
  let last = 63;
  while (last > 0 && block[at + last] === 0) last--;
  let run = 0;
  for (let k = 1; k <= last; k++) {
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
    const rs = (run << 4) | s;
    const size = ac.size[rs];
    // Code and extra bits in one write when they fit its 24 bits (they nearly always do).
    if (size && size + s <= 24) w.write((ac.code[rs] << s) | extraBits(v, s), size + s);
    else {
      w.symbol(ac, rs);
      w.write(extraBits(v, s), s);
    }
    run = 0;
  }
  if (last < 63) w.symbol(ac, 0);
}

/** Symbol frequencies of one block, for optimal tables. */
export function countBlock(dcFreq: Float64Array, acFreq: Float64Array, block: Int16Array, at: number, pred: number): void {
  dcFreq[category(block[at] - pred)]++;
  let last = 63;
  while (last > 0 && block[at + last] === 0) last--;
  let run = 0;
  for (let k = 1; k <= last; k++) {
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
  if (last < 63) acFreq[0]++;
}
