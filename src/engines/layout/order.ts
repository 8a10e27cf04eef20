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

export function readingOrder<T extends Boxed>(items: T[]): T[] {
  if (items.length <= 1) return [...items];
  const columns = verticalCut(items);
  if (columns) return columns.flatMap(readingOrder);
  const bands = horizontalBands(items);
  if (bands.length === 1) return sortTopDown(items);
  return columnRegions(bands).flatMap((region) => (region.length === items.length ? sortTopDown(region) : readingOrder(region)));
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

/** Bands joined while a gutter still runs through all of them. */
function columnRegions<T extends Boxed>(bands: T[][]): T[][] {
  const out: { items: T[]; spans: Span[] }[] = [];
  for (const band of bands) {
    const last = out[out.length - 1];
    const own = covered(extentsOf(band));
    const joined = last ? covered([...last.spans, ...own]) : [];
    if (last && gutters(joined).length > 0 && (gutters(last.spans).length > 0 || gutters(own).length > 0)) {
      last.items.push(...band);
      last.spans = joined;
    } else out.push({ items: [...band], spans: own });
  }
  return out.map((r) => r.items);
}
