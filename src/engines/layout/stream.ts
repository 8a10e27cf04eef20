import { cellText } from "./lattice";
import { union } from "./geometry";
import type { Rect, Table, TextLine, Word } from "./types";

// Borderless tables (the "stream" method): rows of words on shared
// baselines, cut into cells where the gap between words is wider than a
// word space, with cells that line up into columns over at least three rows.
// Guards keep prose out: its lines have no such gaps, and two-column text,
// which does, has long runs of words per cell.

const MIN_ROWS = 3;
/** A gap wider than this many font sizes separates two cells. */
const CELL_GAP = 1.0;
/** Cells of prose hold sentences; table cells hold a few words. */
const MAX_WORDS_PER_CELL = 5;

interface Cell {
  words: Word[];
  box: Rect;
}

interface Row {
  lines: TextLine[];
  cells: Cell[];
  box: Rect;
}

const overlapY = (a: Rect, b: Rect) => Math.min(a[3], b[3]) - Math.max(a[1], b[1]);

/** Lines grouped by baseline, top to bottom, each row cut into cells. */
export function rowsOf(lines: TextLine[]): Row[] {
  const rows: { lines: TextLine[]; box: Rect }[] = [];
  for (const line of [...lines].sort((a, b) => a.box[1] - b.box[1])) {
    // Lines come top-down, so a line's row is among the last few opened.
    const row = rows.slice(-4).find((r) => overlapY(r.box, line.box) > 0.5 * Math.min(r.box[3] - r.box[1], line.box[3] - line.box[1]));
    if (row) {
      row.lines.push(line);
      row.box = union(row.box, line.box);
    } else rows.push({ lines: [line], box: line.box });
  }
  return rows.sort((a, b) => a.box[1] - b.box[1]).map((r) => ({ ...r, cells: cellsOf(r.lines) }));
}

function cellsOf(lines: TextLine[]): Cell[] {
  const size = Math.max(...lines.map((l) => l.size));
  const words = lines.flatMap((l) => l.words).sort((a, b) => a.box[0] - b.box[0]);
  const cells: Cell[] = [];
  for (const w of words) {
    const last = cells[cells.length - 1];
    if (last && w.box[0] - last.box[2] <= CELL_GAP * size) {
      last.words.push(w);
      last.box = union(last.box, w.box);
    } else cells.push({ words: [w], box: w.box });
  }
  return cells;
}

/**
 * Borderless tables among the page's lines; `rules` are the page's ruling
 * lines, if any. `measuredSizes`: the sizes were measured from the letters'
 * boxes (an OCR page), which vary word by word with the letters and the
 * skew, so they cannot tell a heading from a cell.
 */
export function streamTables(lines: TextLine[], rules: Rect[] = [], measuredSizes = false): Table[] {
  const tables: Table[] = [];
  let run: Row[] = [];
  const flush = () => {
    const t = run.length >= MIN_ROWS ? tableOf(trimRun(ruledRows(run, rules))) : null;
    if (t) tables.push(t);
    run = [];
  };
  for (const row of splitAtColumnStarts(rowsOf(lines))) {
    // A table sets its rows in one type size; a heading beside a line of
    // body text (columns of prose on one baseline) is no table row.
    if (!measuredSizes && mixedSizes(row)) {
      flush();
      continue;
    }
    const prev = run[run.length - 1];
    const near = prev && row.box[1] - prev.box[3] < 1.5 * (prev.box[3] - prev.box[1]);
    if (prev && near && row.cells.length >= 2 && aligned(row, run)) run.push(row);
    else if (prev && near && row.cells.length < 2 && fitsColumns(row, run)) run.push(row);
    else {
      flush();
      if (row.cells.length >= 2) run.push(row);
    }
  }
  flush();
  return tables;
}

function mixedSizes(row: Row): boolean {
  const sizes = row.lines.map((l) => l.size).filter((s) => s > 0);
  return sizes.length >= 2 && Math.max(...sizes) > 1.25 * Math.min(...sizes);
}

/** Cells of three rows or more that start within this many points (rounded) start one column. */
const START_TOLERANCE = 1;

/**
 * A long word can crowd the next column ("Parastratiosphecomyiastratiosph
 * Says" with less than a cell gap between): where a word starts exactly
 * where cells of three other rows start, and a clear gap comes before it,
 * it opens a cell. Prose has no such recurring starts inside its lines.
 */
function splitAtColumnStarts(rows: Row[]): Row[] {
  // Starts counted per point, so a dense page (thousands of cells) costs one lookup a word.
  const starts = new Map<number, number>();
  const ends = new Map<number, number>();
  for (const r of rows) {
    for (const c of r.cells.slice(1)) starts.set(Math.round(c.box[0]), (starts.get(Math.round(c.box[0])) ?? 0) + 1);
    // Figures are what a column sets flush right.
    for (const c of r.cells) if (c.words.every((w) => NUMERIC.test(w.text))) ends.set(Math.round(c.box[2]), (ends.get(Math.round(c.box[2])) ?? 0) + 1);
  }
  const recurs = (at: Map<number, number>, x: number) => {
    let n = 0;
    for (let k = Math.round(x) - START_TOLERANCE; k <= Math.round(x) + START_TOLERANCE; k++) n += at.get(k) ?? 0;
    return n >= 3;
  };
  const recurring = (x: number) => recurs(starts, x);
  return rows.map((row) => {
    const size = Math.max(...row.lines.map((l) => l.size));
    const cells = row.cells.flatMap((cell) => {
      const parts: Cell[] = [];
      for (const w of cell.words) {
        const last = parts[parts.length - 1];
        // Dot leaders sit on a grid that recurs in every row: only words open cells.
        // A right-aligned column ends its cells where three other rows' cells
        // end: a header set closer than a cell gap to the next ("Material
        // 2018 Decade" over two columns of figures) is cut there too.
        const apart = w.box[0] - (last?.box[2] ?? 0) >= 0.5 * size;
        const opens = /[\p{L}\p{N}]/u.test(w.text) && apart && (recurring(w.box[0]) || (last !== undefined && recurs(ends, last.box[2])));
        if (last && !opens) {
          last.words.push(w);
          last.box = union(last.box, w.box);
        } else parts.push({ words: [w], box: w.box });
      }
      return parts;
    });
    return cells.length === row.cells.length ? row : { ...row, cells };
  });
}

/**
 * A row continues the table unless one of its cells straddles two columns
 * of the rows so far: a block of a different layout above or below (a form
 * header, a second table) starts a table of its own.
 */
function aligned(row: Row, run: Row[]): boolean {
  if (run.length < 2) return true;
  const cols = columnsOf(run);
  if (cols.length < 2) return true;
  return row.cells.every((c) => bandsUnder(c.box, cols) <= 1 || splittable(c, cols));
}

const bandsUnder = (box: Rect, cols: [number, number][]) => cols.filter(([x0, x1]) => Math.min(x1, box[2]) - Math.max(x0, box[0]) > 0).length;

const NUMERIC = /^[-+(]?[$€£¥]?[\d.,]+%?\)?$/;

/** Numbers set closer than a cell gap ("6,922,900 12,664,000") are still one per column. */
const splittable = (cell: Cell, cols: [number, number][]) => cell.words.every((w) => NUMERIC.test(w.text) && bandsUnder(w.box, cols) <= 1);

/** A one-cell row inside a table (a group label, a wrapped cell) sits under one column, not across the table. */
function fitsColumns(row: Row, run: Row[]): boolean {
  const cols = columnsOf(run);
  return cols.length >= 2 && bandsUnder(row.box, cols) === 1;
}

/**
 * Tables ruled between rows but not between columns: a row's wrapped lines
 * sit between the same two rules, so a line that fills fewer cells than the
 * table has columns and has no rule above it continues the row before it.
 * Only where rules part two row pairs or more: a top, header and bottom
 * rule alone (booktabs) say nothing of the rows between them.
 */
function ruledRows(rows: Row[], rules: Rect[]): Row[] {
  if (rows.length < 2) return rows;
  const box = rows.map((r) => r.box).reduce(union);
  const across = rules.filter((r) => r[3] - r[1] <= 3 && Math.min(r[2], box[2]) - Math.max(r[0], box[0]) >= 0.6 * (box[2] - box[0]));
  const ruleBetween = (a: Row, b: Row) => across.some((r) => r[1] >= a.box[3] - 1 && r[3] <= b.box[1] + 1);
  const parted = rows.slice(1).filter((r, i) => ruleBetween(rows[i], r)).length;
  if (parted < 2) return rows;
  const cols = columnsOf(rows).length;
  // Lines under the last rule are the text after the table.
  const closed = Math.max(...across.map((r) => r[3]));
  const out: Row[] = [rows[0]];
  for (const row of rows.slice(1)) {
    const prev = out[out.length - 1];
    if (row.cells.length < cols && !ruleBetween(prev, row) && row.box[3] <= closed + 1) {
      out[out.length - 1] = { lines: [...prev.lines, ...row.lines], cells: [...prev.cells, ...row.cells], box: union(prev.box, row.box) };
    } else out.push(row);
  }
  return out;
}

/** Single-cell rows at the end of a run are the text after the table. */
function trimRun(run: Row[]): Row[] {
  let end = run.length;
  while (end > 0 && run[end - 1].cells.length < 2) end--;
  return run.slice(0, end);
}

/**
 * Column bands from the rows with the most cells (header cells that span
 * several columns would merge bands): the union of their cells' x-extents.
 */
function columnsOf(rows: Row[]): [number, number][] {
  const counts = rows.map((r) => r.cells.length).sort((a, b) => b - a);
  const typical = counts[Math.floor(counts.length / 3)] ?? 0;
  const spans = rows
    .filter((r) => r.cells.length >= typical)
    .flatMap((r) => r.cells.map((c): [number, number] => [c.box[0], c.box[2]]))
    .sort((a, b) => a[0] - b[0]);
  const bands: [number, number][] = [];
  for (const [x0, x1] of spans) {
    const last = bands[bands.length - 1];
    if (last && x0 <= last[1]) last[1] = Math.max(last[1], x1);
    else bands.push([x0, x1]);
  }
  return oneColumnBands(bands, rows);
}

/**
 * A column of labels set left and figures set right ("Court" over
 * "2,961") makes two bands that never hold two cells of one row: close
 * together, they are one column.
 */
function oneColumnBands(bands: [number, number][], rows: Row[]): [number, number][] {
  const size = Math.max(...rows.flatMap((r) => r.lines.map((l) => l.size)));
  const hits = (c: Cell, [x0, x1]: [number, number]) => Math.min(x1, c.box[2]) - Math.max(x0, c.box[0]) > 0;
  const out: [number, number][] = [];
  for (const band of bands) {
    const last = out[out.length - 1];
    const both = (r: Row) => r.cells.some((c) => hits(c, last) && !hits(c, band)) && r.cells.some((c) => hits(c, band) && !hits(c, last));
    if (last && band[0] - last[1] < 2 * size && !rows.some(both)) last[1] = band[1];
    else out.push([...band]);
  }
  return out;
}

/** The band a cell belongs to: the one it overlaps most, else the nearest. */
function columnOf(cell: Cell, cols: [number, number][]): number {
  let best = 0;
  let score = Number.NEGATIVE_INFINITY;
  cols.forEach(([x0, x1], i) => {
    const s = Math.min(x1, cell.box[2]) - Math.max(x0, cell.box[0]);
    if (s > score) [best, score] = [i, s];
  });
  return best;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Text set in three or more narrow columns has few words a line, under the
 * cell limit, and baselines that line up across the gutters. Its lines fill
 * their column and hold several words each; a table's cells leave most of
 * their column empty or hold a number. Prose in half the columns or more
 * is columns of text, not a table.
 */
function proseColumns(rows: Row[], cols: [number, number][]): boolean {
  let prose = 0;
  cols.forEach(([x0, x1], i) => {
    const cells = rows.flatMap((r) => r.cells.filter((c) => columnOf(c, cols) === i));
    if (cells.length < MIN_ROWS) return;
    const fill = median(cells.map((c) => (c.box[2] - c.box[0]) / Math.max(1, x1 - x0)));
    if (fill >= 0.8 && median(cells.map((c) => c.words.length)) >= 3) prose++;
  });
  return prose >= Math.max(2, Math.ceil(cols.length / 2));
}

/**
 * Lines of running text go on mid-sentence: in columns of prose most lines
 * start in lower case and hold several words. Table cells start with a
 * capital, a number or a symbol.
 */
function runningText(cells: string[]): boolean {
  const lower = cells.filter((t) => /^\p{Ll}/u.test(t)).length;
  return lower >= 0.4 * cells.length && median(cells.map((t) => t.split(" ").length)) >= 3;
}

function tableOf(rows: Row[]): Table | null {
  if (rows.length < MIN_ROWS) return null;
  const cols = columnsOf(rows);
  if (cols.length < 2) return null;
  const grid = rows.map((row) => {
    const cells = cols.map(() => [] as Word[]);
    for (const cell of row.cells) {
      if (bandsUnder(cell.box, cols) > 1 && splittable(cell, cols)) for (const w of cell.words) cells[columnOf({ words: [w], box: w.box }, cols)].push(w);
      else cells[columnOf(cell, cols)].push(...cell.words);
    }
    return cells.map(cellText);
  });
  const filled = grid.flat().filter((t) => t !== "");
  // Cells and lines both: justified columns stretch word spaces past a cell gap, cutting their lines into one-word cells.
  const lineTexts = rows.flatMap((r) => r.lines.map((l) => cellText(l.words)));
  if (proseColumns(rows, cols) || runningText(filled) || runningText(lineTexts)) return null;
  // Dot leaders ("Total . . . .") are not words.
  const words = filled.reduce((n, t) => n + t.split(" ").filter((w) => /[\p{L}\p{N}]/u.test(w)).length, 0);
  if (words / filled.length > MAX_WORDS_PER_CELL) return null;
  // Two columns of short text are often a label/value list; ask for numbers.
  if (cols.length === 2 && !grid.some((r) => r.some((t) => /\d/.test(t)))) return null;
  const complete = grid.filter((r) => r.every((t) => t !== "")).length / grid.length;
  const box = rows.map((r) => r.box).reduce(union);
  return { kind: "stream", box, rows: grid, confidence: Math.round((0.4 + 0.6 * complete) * 100) / 100 };
}
