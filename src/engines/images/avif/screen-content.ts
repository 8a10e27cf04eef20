// aom decides per frame whether to search its screen-content tools (palette
// and IntraBC): when more than a tenth of the picture lies in 16x16 blocks of
// 2 to 4 distinct luma values (av1_set_screen_content_options in aom's
// encoder.c). A grid tile is a frame of its own, so aom would judge each tile
// alone, and on photos a tile of sky passes for a screenshot: measured on a
// 1600x2440 photo, 14 of 40 tiles did, which cost 25 % more encode time and
// saved nothing. The grid writer instead makes the decision aom would make for
// the part of the picture seen so far, with aom's own rule, and imposes it on
// each row of tiles (avif/still.ts, av1-still.c). Rows arrive top to bottom,
// so the first rows are judged on less of the picture; by the last row the
// decision is the whole picture's.
//
// One deliberate difference: a block counts only when its few values lie at
// least MIN_SPREAD levels apart. aom counts any block of 2 to 4 values (its
// variance threshold is 0), so a smooth photo's gradients, 1 to 3 levels
// apart, turned the tools on: a blurred 12 MP photo had 20 % of its blocks
// so, every one spanning under 4 levels, and its grid took 4 times as long
// (20.8 s against 5.5 s) for a file 0.05 % smaller. Screen content's few
// colours are far apart (aliased text on white: every block 64 levels or
// more), and there the tools make the file 15 times smaller.

import type { Pixels } from "../types";

const BLOCK = 16;
const MAX_COLORS = 4;
/** The least distance between a block's darkest and lightest luma for it to count as screen-like. */
const MIN_SPREAD = 8;

/** BT.601 luma exactly as av1-still.c computes it for the encoder. */
const luma = (r: number, g: number, b: number) => (19595 * r + 38470 * g + 7471 * b + 32768) >> 16;

export class ScreenContentStats {
  /** Blocks with 2..4 luma values, and pixels seen. */
  private fewColorBlocks = 0;
  private area = 0;
  private readonly seen = new Uint8Array(256);
  private readonly values = new Uint8Array(MAX_COLORS + 1);

  /**
   * Adds `rows` RGBA rows of a `width`-wide picture. Blocks are 16x16 from the
   * band's top-left; a band whose height is not a multiple of 16 leaves its
   * last partial block row uncounted (its pixels still count in the area).
   */
  add(data: Pixels["data"], width: number, rows: number): void {
    this.area += width * rows;
    for (let by = 0; by + BLOCK <= rows; by += BLOCK) {
      for (let bx = 0; bx + BLOCK <= width; bx += BLOCK) {
        const n = this.countColors(data, width, bx, by);
        if (n > 1 && n <= MAX_COLORS && this.spread(n) >= MIN_SPREAD) this.fewColorBlocks++;
        this.reset(n);
      }
    }
  }

  /** aom's rule: screen content when few-colour blocks (far enough apart) cover more than a tenth of the area. */
  isScreenContent(): boolean {
    return this.fewColorBlocks * BLOCK * BLOCK * 10 > this.area;
  }

  /** Distinct luma values of one block, counted up to MAX_COLORS + 1 (kept in `values` until `reset`). */
  private countColors(data: Pixels["data"], width: number, bx: number, by: number): number {
    let n = 0;
    for (let y = by; y < by + BLOCK; y++) {
      let o = (y * width + bx) * 4;
      for (let x = 0; x < BLOCK; x++, o += 4) {
        const v = luma(data[o], data[o + 1], data[o + 2]);
        if (this.seen[v]) continue;
        this.seen[v] = 1;
        this.values[n++] = v;
        if (n > MAX_COLORS) return n;
      }
    }
    return n;
  }

  /** Lightest minus darkest of the block's `n` values just counted. */
  private spread(n: number): number {
    let lo = 255;
    let hi = 0;
    for (let i = 0; i < n; i++) {
      lo = Math.min(lo, this.values[i]);
      hi = Math.max(hi, this.values[i]);
    }
    return hi - lo;
  }

  /** Clears the marks of the block's `n` values for the next block. */
  private reset(n: number): void {
    for (let i = 0; i < n; i++) this.seen[this.values[i]] = 0;
  }
}
