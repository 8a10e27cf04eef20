import type { Rect } from "./types";

// Reading order by recursive XY-cut, columns first: a gutter that runs the
// height of a region splits it into columns read left to right; otherwise
// whitespace bands split it top to bottom. Neighbouring bands that share a
// gutter are one multi-column region again, so a paragraph gap that happens
// to line up across two columns does not interleave them.

const MIN_GUTTER = 6;

interface Boxed {
  box: Rect;
}

export function readingOrder<T extends Boxed>(items: T[]): T[] {
  if (items.length <= 1) return [...items];
  const columns = verticalCut(items);
  if (columns) return columns.flatMap(readingOrder);
  const bands = horizontalBands(items);
  if (bands.length === 1) return [...items].sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
  return mergeColumnBands(bands).flatMap((band) => (band.length === items.length ? sortTopDown(band) : readingOrder(band)));
}

const sortTopDown = <T extends Boxed>(items: T[]) => [...items].sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);

/** The widest empty vertical strip with content on both sides, as the two sides. */
function verticalCut<T extends Boxed>(items: T[]): [T[], T[]] | null {
  const gap = widestGap(items.map((i): [number, number] => [i.box[0], i.box[2]]));
  if (!gap || gap[1] - gap[0] < MIN_GUTTER) return null;
  const left = items.filter((i) => i.box[2] <= gap[0]);
  const right = items.filter((i) => i.box[0] >= gap[1]);
  // A column is more than a stray number in the margin.
  if (left.length < 2 || right.length < 2) return null;
  return [left, right];
}

function widestGap(extents: [number, number][]): [number, number] | null {
  const sorted = [...extents].sort((a, b) => a[0] - b[0]);
  let best: [number, number] | null = null;
  let reach = sorted[0][1];
  for (const [x0, x1] of sorted.slice(1)) {
    if (x0 > reach && (!best || x0 - reach > best[1] - best[0])) best = [reach, x0];
    reach = Math.max(reach, x1);
  }
  return best;
}

function horizontalBands<T extends Boxed>(items: T[]): T[][] {
  const bands: T[][] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (const item of sortTopDown(items)) {
    if (!bands.length || item.box[1] >= bottom - 0.5) {
      bands.push([item]);
      bottom = item.box[3];
    } else {
      bands[bands.length - 1].push(item);
      bottom = Math.max(bottom, item.box[3]);
    }
  }
  return bands;
}

function mergeColumnBands<T extends Boxed>(bands: T[][]): T[][] {
  const out: T[][] = [];
  for (const band of bands) {
    const last = out[out.length - 1];
    if (last && sharesGutter(last, band)) last.push(...band);
    else out.push([...band]);
  }
  return out;
}

function sharesGutter<T extends Boxed>(a: T[], b: T[]): boolean {
  const ga = widestGap(a.map((i): [number, number] => [i.box[0], i.box[2]]));
  const gb = widestGap(b.map((i): [number, number] => [i.box[0], i.box[2]]));
  if (!ga || !gb) return false;
  return Math.min(ga[1], gb[1]) - Math.max(ga[0], gb[0]) >= MIN_GUTTER;
}
