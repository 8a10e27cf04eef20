import { union } from "./geometry";
import type { Rect, Table, Word } from "./types";

// Ruled tables: cells from the page's thin rectangles and lines (the
// "lattice" method of Camelot), merged cells where a separator is missing.

const SNAP = 2;
const MAX_RULES = 3000;
const MIN_FILLED = 0.3;
const MAX_WORDS_PER_CELL = 15;

interface Rule {
  horizontal: boolean;
  /** y of a horizontal rule, x of a vertical one. */
  at: number;
  from: number;
  to: number;
  box: Rect;
}

const toRule = (r: Rect): Rule => {
  const horizontal = r[2] - r[0] >= r[3] - r[1];
  return horizontal ? { horizontal, at: (r[1] + r[3]) / 2, from: r[0], to: r[2], box: r } : { horizontal, at: (r[0] + r[2]) / 2, from: r[1], to: r[3], box: r };
};

const touches = (a: Rect, b: Rect) => a[0] <= b[2] + SNAP && b[0] <= a[2] + SNAP && a[1] <= b[3] + SNAP && b[1] <= a[3] + SNAP;

/** Groups rules that touch one another: each group is one candidate table. */
function groups(rules: Rule[]): Rule[][] {
  const parent = rules.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < rules.length; i++) {
    for (let j = i + 1; j < rules.length; j++) if (touches(rules[i].box, rules[j].box)) parent[find(i)] = find(j);
  }
  const out = new Map<number, Rule[]>();
  rules.forEach((r, i) => out.set(find(i), [...(out.get(find(i)) ?? []), r]));
  return [...out.values()];
}

/** Sorted distinct positions, positions closer than SNAP counted once. */
function snap(values: number[]): number[] {
  const out: number[] = [];
  for (const v of [...values].sort((a, b) => a - b)) if (!out.length || v - out[out.length - 1] > SNAP) out.push(v);
  return out;
}

const covered = (rules: Rule[], at: number, from: number, to: number) => {
  const mid = (from + to) / 2;
  return rules.some((r) => Math.abs(r.at - at) <= SNAP && r.from <= mid + SNAP && r.to >= mid - SNAP);
};

/** Ruled tables on a page, with the words inside each cell. */
export function latticeTables(rects: Rect[], words: Word[]): Table[] {
  // Grouping is quadratic: a page of thousands of thin paths is a drawing.
  if (rects.length > MAX_RULES) return [];
  const tables: Table[] = [];
  for (const group of groups(rects.map(toRule))) {
    const table = gridTable(group, words);
    if (table) tables.push(table);
  }
  return tables;
}

function gridTable(rules: Rule[], words: Word[]): Table | null {
  const hs = rules.filter((r) => r.horizontal);
  const vs = rules.filter((r) => !r.horizontal);
  if (hs.length < 2 || vs.length < 2) return null;
  const box = rules.map((r) => r.box).reduce(union);
  // The outer edges count even where a table leaves its sides open.
  const ys = snap([...hs.map((r) => r.at), box[1], box[3]]);
  const xs = snap([...vs.map((r) => r.at), box[0], box[2]]);
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  if (rows < 1 || cols < 2 || rows * cols < 4) return null;

  // Slots joined where the separator between them is missing (merged cells).
  const id = (r: number, c: number) => r * cols + c;
  const parent = Array.from({ length: rows * cols }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const join = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (c + 1 < cols && !covered(vs, xs[c + 1], ys[r], ys[r + 1])) join(id(r, c), id(r, c + 1));
      if (r + 1 < rows && !covered(hs, ys[r + 1], xs[c], xs[c + 1])) join(id(r, c), id(r + 1, c));
    }
  }

  const texts = new Map<number, Word[]>();
  let inside = 0;
  for (const w of words) {
    const x = (w.box[0] + w.box[2]) / 2;
    const y = (w.box[1] + w.box[3]) / 2;
    const c = xs.findIndex((v, i) => i < cols && x >= v && x < xs[i + 1]);
    const r = ys.findIndex((v, i) => i < rows && y >= v && y < ys[i + 1]);
    if (c < 0 || r < 0) continue;
    inside++;
    const owner = find(id(r, c));
    texts.set(owner, [...(texts.get(owner) ?? []), w]);
  }
  if (inside === 0) return null;
  const grid = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => (find(id(r, c)) === id(r, c) ? cellText(texts.get(id(r, c)) ?? []) : "")),
  );
  const filled = grid.flat().filter((t) => t !== "").length;
  const owners = new Set(parent.map((_, i) => find(i))).size;
  // A ruled box around one paragraph or listing is a frame, not a table.
  const textCols = new Set(grid.flatMap((r) => r.flatMap((t, c) => (t ? [c] : [])))).size;
  const textRows = grid.filter((r) => r.some((t) => t)).length;
  if (owners < 2 || filled < 2 || textCols < 2 || textRows < 2) return null;
  // Diagrams and page layouts drawn with boxes: mostly empty, or sentences in boxes.
  const wordCount = grid.flat().reduce((n, t) => n + (t ? t.split(" ").length : 0), 0);
  if (filled / owners < MIN_FILLED || wordCount / filled > MAX_WORDS_PER_CELL) return null;
  return { kind: "lattice", box, rows: grid, confidence: Math.min(1, 0.6 + (0.4 * filled) / owners) };
}

const RTL_TEXT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/g;

/** Words of one cell in reading order: by line, then left to right (right to left for Arabic and Hebrew), leaders dropped. */
export function cellText(words: Word[]): string {
  const all = words.map((w) => w.text).join("");
  const rtl = (all.match(RTL_TEXT)?.length ?? 0) > all.replace(RTL_TEXT, "").replace(/[^\p{L}]/gu, "").length;
  const sorted = [...words].sort((a, b) => {
    const sameLine = Math.abs(a.box[1] - b.box[1]) < 0.5 * (a.box[3] - a.box[1]);
    return sameLine ? (rtl ? b.box[0] - a.box[0] : a.box[0] - b.box[0]) : a.box[1] - b.box[1];
  });
  // Dot leaders after a label ("Total . . . . .") are layout, not the label;
  // a cell of dots alone ("...", not available) is kept.
  return sorted
    .map((w) => w.text)
    .join(" ")
    .replace(/(?<=[\p{L}\p{N})\]])(?:\s*\.){3,}\s*$/u, "");
}
