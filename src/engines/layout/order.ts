import type { Rect } from "./types";

// Reading order by recursive XY-cut, columns first: a gutter that runs the
// height of a region splits it into columns read left to right; otherwise
// whitespace bands split it top to bottom. Consecutive bands whose union
// still has a gutter are one column region again: columns set on one
// baseline grid leave a whitespace band under every line, and a title or a
// figure across the page is what ends a region, not a line gap.

const MIN_GUTTER = 6;

interface Boxed {
  box: Rect;
}

type Span = [number, number];

/**
 * `wall`: items that say nothing but end a column region when a band holds
 * only them across a gutter (a chart drawn as shapes across the page).
 */
export function readingOrder<T extends Boxed>(items: T[], wall?: (item: T) => boolean): T[] {
  if (items.length <= 1) return [...items];
  const again = (part: T[]) => readingOrder(part, wall);
  const columns = verticalCut(items);
  if (columns) return columns.flatMap(again);
  const bands = horizontalBands(items);
  if (bands.length === 1) return sortTopDown(items);
  return columnRegions(bands, wall).flatMap((region) => (region.length === items.length ? sortTopDown(region) : again(region)));
}

const sortTopDown = <T extends Boxed>(items: T[]) => [...items].sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);

/** x-extents merged where they touch or overlap, left to right. */
function covered(extents: Span[]): Span[] {
  const out: Span[] = [];
  for (const [x0, x1] of [...extents].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && x0 <= last[1]) last[1] = Math.max(last[1], x1);
    else out.push([x0, x1]);
  }
  return out;
}

/** Empty vertical strips at least a gutter wide between covered spans, widest first. */
function gutters(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (let i = 1; i < spans.length; i++) if (spans[i][0] - spans[i - 1][1] >= MIN_GUTTER) out.push([spans[i - 1][1], spans[i][0]]);
  return out.sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
}

const extentsOf = <T extends Boxed>(items: T[]) => items.map((i): Span => [i.box[0], i.box[2]]);

/**
 * The widest gutter with content on both sides, as the two sides. A column
 * is more than a stray number in the margin: a side of one item makes the
 * next gutter be tried.
 */
function verticalCut<T extends Boxed>(items: T[]): [T[], T[]] | null {
  for (const [g0, g1] of gutters(covered(extentsOf(items)))) {
    const left = items.filter((i) => i.box[2] <= g0);
    const right = items.filter((i) => i.box[0] >= g1);
    if (left.length >= 2 && right.length >= 2) return [left, right];
  }
  return null;
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

/**
 * Bands joined while a gutter still runs through all of them. A band of
 * walls only that reaches across a gutter of the region above is a region
 * of its own, and the next band starts another.
 */
function columnRegions<T extends Boxed>(bands: T[][], wall?: (item: T) => boolean): T[][] {
  const out: { items: T[]; spans: Span[]; closed: boolean }[] = [];
  for (const band of bands) {
    const last = out[out.length - 1];
    const own = covered(extentsOf(band));
    if (last && wall && band.every(wall)) {
      const [x0, x1] = [Math.min(...band.map((i) => i.box[0])), Math.max(...band.map((i) => i.box[2]))];
      if (gutters(last.spans).some(([g0, g1]) => x0 <= g0 && x1 >= g1)) {
        out.push({ items: [...band], spans: own, closed: true });
        continue;
      }
    }
    const joined = last ? covered([...last.spans, ...own]) : [];
    if (last && !last.closed && gutters(joined).length > 0 && (gutters(last.spans).length > 0 || gutters(own).length > 0)) {
      last.items.push(...band);
      last.spans = joined;
    } else out.push({ items: [...band], spans: own, closed: false });
  }
  return out.map((r) => r.items);
}
