import type { Rect } from "./model";

// Ruled tables from the strokes of a page: horizontal and vertical rules
// that touch one another form a grid; its distinct y's are row borders and
// its distinct x's column borders. A border missing inside a row merges the
// cells on either side (a column span). Tables without rules (whitespace
// columns) are left as text.

export interface Grid {
  /** Column borders, left to right. */
  xs: number[];
  /** Row borders, top to bottom. */
  ys: number[];
  /** spans[r][c]: how many columns the cell starting at (r, c) spans; 0 where a cell to the left covers it, COVERED where one above does. */
  spans: number[][];
  /** rowSpans[r][c]: how many rows the cell starting at (r, c) spans (1 for most; see mergeRows). */
  rowSpans: number[][];
  /** The grid's horizontal rules, for mergeRows. */
  horizontals: Segment[];
}

/** Marks the first column of a cell merged into the one above. */
export const COVERED = -1;

const TOL = 2;

export interface Segment {
  at: number;
  from: number;
  to: number;
}

export function findGrids(rules: Rect[]): Grid[] {
  const h = merge(rules.filter((r) => r[3] - r[1] <= r[2] - r[0]).map((r) => ({ at: (r[1] + r[3]) / 2, from: r[0], to: r[2] })));
  const v = merge(rules.filter((r) => r[3] - r[1] > r[2] - r[0]).map((r) => ({ at: (r[0] + r[2]) / 2, from: r[1], to: r[3] })));
  const parent = [...h, ...v].map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < h.length; i++) {
    for (let j = 0; j < v.length; j++) {
      if (touches(h[i], v[j])) parent[find(i)] = find(h.length + j);
    }
  }
  const groups = new Map<number, { h: Segment[]; v: Segment[] }>();
  h.forEach((s, i) => group(groups, find(i)).h.push(s));
  v.forEach((s, j) => group(groups, find(h.length + j)).v.push(s));
  const grids: Grid[] = [];
  for (const g of groups.values()) {
    const ys = cluster(g.h.map((s) => s.at));
    const xs = cluster(g.v.map((s) => s.at));
    if (ys.length < 2 || xs.length < 2 || (ys.length === 2 && xs.length === 2)) continue;
    const spans = spansOf(xs, ys, g.v);
    grids.push({ xs, ys, spans, rowSpans: spans.map((row) => row.map(() => 1)), horizontals: g.h });
  }
  return grids;
}

function group(groups: Map<number, { h: Segment[]; v: Segment[] }>, key: number) {
  let g = groups.get(key);
  if (!g) groups.set(key, (g = { h: [], v: [] }));
  return g;
}

const touches = (hs: Segment, vs: Segment) => vs.at >= hs.from - TOL && vs.at <= hs.to + TOL && hs.at >= vs.from - TOL && hs.at <= vs.to + TOL;

/** Joins collinear segments that overlap or meet (borders are often drawn cell by cell). */
function merge(segments: Segment[]): Segment[] {
  const sorted = segments.sort((a, b) => a.at - b.at || a.from - b.from);
  const out: Segment[] = [];
  for (const s of sorted) {
    const last = out.findLast((o) => Math.abs(o.at - s.at) <= TOL && s.from <= o.to + TOL);
    if (last) last.to = Math.max(last.to, s.to);
    else out.push({ ...s });
  }
  return out;
}

/** Distinct positions, nearby ones (within TOL) taken as one. */
function cluster(values: number[]): number[] {
  const out: number[] = [];
  for (const v of [...values].sort((a, b) => a - b)) {
    if (!out.length || v - out[out.length - 1] > TOL) out.push(v);
  }
  return out;
}

function spansOf(xs: number[], ys: number[], verticals: Segment[]): number[][] {
  const spans: number[][] = [];
  for (let r = 0; r + 1 < ys.length; r++) {
    const mid = (ys[r] + ys[r + 1]) / 2;
    const row = new Array<number>(xs.length - 1).fill(0);
    let start = 0;
    for (let c = 1; c < xs.length; c++) {
      const border = c === xs.length - 1 || verticals.some((s) => Math.abs(s.at - xs[c]) <= TOL && s.from <= mid && s.to >= mid);
      if (border) {
        row[start] = c - start;
        start = c;
      }
    }
    spans.push(row);
  }
  return spans;
}

/**
 * Joins a cell with the one below when no rule separates them, they cover
 * the same columns, and only one of them holds text. PDFs often omit or
 * misplace a row's rule where the rows still differ, so text on both sides
 * keeps them apart. `hasText(r, c)` says whether a cell received glyphs.
 * Answers the merges made, [top row, column, rows spanned].
 */
export function mergeRows(grid: Grid, hasText: (r: number, c: number) => boolean): [number, number, number][] {
  const { xs, ys, spans, rowSpans, horizontals } = grid;
  const merged: [number, number, number][] = [];
  for (let r = 0; r < spans.length; r++) {
    for (let c = 0; c < xs.length - 1; c++) {
      const n = spans[r][c];
      if (n <= 0) continue;
      const mid = (xs[c] + xs[c + n]) / 2;
      let text = hasText(r, c);
      let k = 1;
      for (; r + k < spans.length && spans[r + k][c] === n; k++) {
        if (horizontals.some((s) => Math.abs(s.at - ys[r + k]) <= TOL && s.from <= mid && s.to >= mid)) break;
        if (text && hasText(r + k, c)) break;
        text ||= hasText(r + k, c);
        spans[r + k][c] = COVERED;
      }
      rowSpans[r][c] = k;
      if (k > 1) merged.push([r, c, k]);
    }
  }
  return merged;
}

/** Row and column of the cell holding point (x, y), or null outside the grid. */
export function cellAt(grid: Grid, x: number, y: number): [number, number] | null {
  const { xs, ys } = grid;
  if (x < xs[0] || x > xs[xs.length - 1] || y < ys[0] || y > ys[ys.length - 1]) return null;
  let r = 0;
  while (r + 2 < ys.length && y > ys[r + 1]) r++;
  let c = 0;
  while (c + 2 < xs.length && x > xs[c + 1]) c++;
  // Inside a span, the cell is the one where the span starts.
  while (c > 0 && grid.spans[r][c] === 0) c--;
  while (r > 0 && grid.spans[r][c] === COVERED) r--;
  return [r, c];
}
