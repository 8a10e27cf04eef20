// aom decides per frame whether to search its screen-content tools: when more
// than a tenth of the picture lies in 16x16 blocks of 2 to 4 distinct luma
// values it turns on palette, and IntraBC too when enough of those blocks
// vary (av1_set_screen_content_options in aom's encoder.c). A grid tile is a
// frame of its own, so aom would judge each tile alone, and on photos a tile
// of sky passes for a screenshot: measured on a 1600x2440 photo, 14 of 40
// tiles did, which cost 25 % more encode time and saved nothing. The grid
// writer instead makes the decision for the part of the picture seen so far
// and imposes it on each row of tiles (avif/still.ts, av1-still.c). Rows
// arrive top to bottom, so the first rows are judged on less of the picture;
// by the last row the decision is the whole picture's.
//
// Palette follows aom's own rule. IntraBC (with the screen-content frame
// type) is the expensive one, and its rule is ours: a block counts only when
// its few values lie at least MIN_SPREAD levels apart. aom's variance
// threshold is 0, so a smooth picture's gradients, 1 to 3 levels apart, count
// for IntraBC as well. Measured on 12 MP grids (pictures in the AVIF bench):
// - a blurred photo: palette +40 % time for 0.07 % of size, IntraBC 4x the
//   time for nothing more;
// - a photo upscaled 20x (gradients of flat steps): palette 2x the time and
//   10 % smaller, IntraBC 3x more time for 0.02 %;
// - text on white scaled up 4x, both imposed: palette 2 % smaller, IntraBC
//   45 % (neither aom's rule nor ours turns them on there: its edges are
//   smooth, few blocks hold 2 to 4 values); aliased text (every block 64
//   levels apart or more) passes both rules and gets both tools.

import type { ScreenTools } from "../codecs/av1-still";
import type { Pixels } from "../types";

const BLOCK = 16;
const MAX_COLORS = 4;
/** The least distance between a block's darkest and lightest luma for it to count towards IntraBC. */
const MIN_SPREAD = 8;

/** BT.601 luma exactly as av1-still.c computes it for the encoder. */
const luma = (r: number, g: number, b: number) => (19595 * r + 38470 * g + 7471 * b + 32768) >> 16;

export class ScreenContentStats {
  /** Blocks with 2..4 luma values (aom's count), those of them MIN_SPREAD apart, and pixels seen. */
  private fewColorBlocks = 0;
  private spreadBlocks = 0;
  private area = 0;
  private readonly seen = new Uint8Array(256);
  private readonly values = new Uint8Array(MAX_COLORS + 1);

  /** `channel`: what a block's values are: BT.601 luma (the colour item) or alpha (the alpha item, a frame of its own). */
  constructor(private readonly channel: "luma" | "alpha" = "luma") {}

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
        if (n > 1 && n <= MAX_COLORS) {
          this.fewColorBlocks++;
          if (this.spread(n) >= MIN_SPREAD) this.spreadBlocks++;
        }
        this.reset(n);
      }
    }
  }

  /** What to search: each kind of block must cover more than a tenth of the area seen. */
  tools(): ScreenTools {
    const overTenth = (blocks: number) => blocks * BLOCK * BLOCK * 10 > this.area;
    if (overTenth(this.spreadBlocks)) return "all";
    return overTenth(this.fewColorBlocks) ? "palette" : "off";
  }

  /** Distinct luma values of one block, counted up to MAX_COLORS + 1 (kept in `values` until `reset`). */
  private countColors(data: Pixels["data"], width: number, bx: number, by: number): number {
    let n = 0;
    for (let y = by; y < by + BLOCK; y++) {
      let o = (y * width + bx) * 4;
      for (let x = 0; x < BLOCK; x++, o += 4) {
        const v = this.channel === "alpha" ? data[o + 3] : luma(data[o], data[o + 1], data[o + 2]);
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

/** The rule's decision for a whole picture's colour or alpha. */
export function screenToolsOf(px: Pixels, channel: "luma" | "alpha" = "luma"): ScreenTools {
  const stats = new ScreenContentStats(channel);
  stats.add(px.data, px.width, px.height);
  return stats.tools();
}
