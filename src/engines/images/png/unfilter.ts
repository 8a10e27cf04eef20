import { corrupt } from "./chunks";

// PNG scanline un-filtering, in place. `cur` and `prev` both start with `bpp`
// zero bytes (so the byte "to the left" of the first pixel is always 0 without
// a branch); the scanline is cur[bpp ..]. `prev` is the previous scanline,
// already un-filtered (all zeros for the first row of an image or pass).
// Uint8Array stores wrap modulo 256, which is the arithmetic PNG wants.

export function unfilter(filter: number, cur: Uint8Array, prev: Uint8Array, bpp: number): void {
  const n = cur.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = bpp; i < n; i++) cur[i] += cur[i - bpp];
      return;
    case 2:
      for (let i = bpp; i < n; i++) cur[i] += prev[i];
      return;
    case 3:
      for (let i = bpp; i < n; i++) cur[i] += (cur[i - bpp] + prev[i]) >> 1;
      return;
    case 4:
      // Paeth, branchless (noisy photos make the comparisons unpredictable; ~4x faster than ?:).
      for (let i = bpp; i < n; i++) {
        const a = cur[i - bpp],
          b = prev[i],
          c = prev[i - bpp];
        let pa = b - c; // p - a, with p = a + b - c
        let pb = a - c; // p - b
        let pc = pa + pb; // p - c
        pa = (pa ^ (pa >> 31)) - (pa >> 31);
        pb = (pb ^ (pb >> 31)) - (pb >> 31);
        pc = (pc ^ (pc >> 31)) - (pc >> 31);
        // b if pb <= pc else c; then a if pa <= min(pb, pc) else that.
        const mbc = (pc - pb) >> 31;
        const bc = (b & ~mbc) | (c & mbc);
        const pbc = (pb & ~mbc) | (pc & mbc);
        const ma = (pbc - pa) >> 31;
        cur[i] += (a & ~ma) | (bc & ma);
      }
      return;
    default:
      throw corrupt(`a scanline has the unknown filter type ${filter}`);
  }
}
