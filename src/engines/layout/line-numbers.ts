import { union } from "./geometry";
import type { RawPage, Rect, Span, TextLine, Word } from "./types";

// Line numbers in the margin (legal briefs, manuscripts, patents): a number
// beside every line or every fifth, left or right of the text. They are
// page furniture: left in, they open every paragraph line with a figure,
// break paragraphs where a number and a line fail to join, or read as a
// table column. Found on a page by their shape, and on later pages also by
// the place they held on earlier ones.

const NUMBER = /^\d{1,4}$/;
/** Candidates closer than this (points) share an edge: one column. */
const ALIGN = 2;
/** A number and its line's first word further apart than this many of the line's font sizes are two things, not "1 Introduction". */
const APART = 0.8;
/** Fewer numbers than this on one page prove nothing by themselves (a list, a table's first column). */
const MIN_ON_PAGE = 3;
/** Of the steps between successive numbers, this share must be the usual step (1, 5 or 10). */
const SAME_STEP = 0.6;
const STEPS = new Set([1, 5, 10]);
/** Of the numbers, this share must sit on the baseline of a text line beside them. */
const ON_BASELINE = 0.5;
/** How far in from the page's edge a column of numbers may stand (share of the page's width). */
const EDGE = 0.3;

/** Margin columns found on earlier pages of the document: side and aligned edge. */
export interface LineNumberMemory {
  columns: { side: Side; key: Key; x: number }[];
}

type Side = "left" | "right";
type Key = 0 | 2;

interface Candidate {
  line: TextLine;
  /** Which word of the line is the number: a line of its own (whole), or the first or last word set far apart. */
  at: "whole" | "first" | "last";
  box: Rect;
  value: number;
}

export const newLineNumberMemory = (): LineNumberMemory => ({ columns: [] });

/**
 * The page without its margin line numbers. A column of them is short
 * numeric tokens (1-4 digits) sharing a left or right edge, outside the
 * text (nothing but the margin between them and the page's edge), with
 * nothing else in that column over their height and no rule across it, increasing down the page
 * mostly by one step (1, 5 or 10), and most of them on the baseline of a
 * text line. A page proves a column with three numbers; a column at the
 * place `memory` holds from an earlier page needs one. A number MuPDF set
 * on its line's baseline with the line (a heading's "1" in the margin) is
 * cut off the line.
 */
export function dropLineNumbers<P extends RawPage>(page: P, memory: LineNumberMemory = newLineNumberMemory()): P {
  const candidates = page.lines.flatMap(candidatesOf);
  if (!candidates.length) return page;
  const whole = new Set(candidates.filter((c) => c.at === "whole").map((c) => c.line));
  const text = page.lines.filter((l) => !whole.has(l));
  if (!text.length) return page;
  const [left, right] = textEdges(text, candidates);
  const found = new Set<Candidate>();
  for (const side of ["left", "right"] as Side[]) {
    const outside = candidates.filter((c) =>
      side === "left" ? c.box[2] <= left - ALIGN && c.box[2] <= page.width * EDGE : c.box[0] >= right + ALIGN && c.box[0] >= page.width * (1 - EDGE),
    );
    for (const key of [0, 2] as Key[]) {
      for (const column of alignedColumns(outside, key)) {
        const known = memory.columns.some((m) => m.side === side && m.key === key && Math.abs(m.x - column[0].box[key]) <= ALIGN);
        if (column.length < (known ? 1 : MIN_ON_PAGE) || !isLineNumbering(column, page, side)) continue;
        for (const c of column) found.add(c);
        if (!known) memory.columns.push({ side, key, x: column[0].box[key] });
      }
    }
  }
  if (!found.size) return page;
  const lines = page.lines.flatMap((l) => {
    const cut = [...found].find((c) => c.line === l);
    if (!cut) return [l];
    return cut.at === "whole" ? [] : [withoutWord(l, cut.at)];
  });
  return { ...page, lines };
}

function candidatesOf(line: TextLine): Candidate[] {
  const ws = line.words;
  if (ws.length === 1 && NUMBER.test(ws[0].text)) return [{ line, at: "whole", box: ws[0].box, value: Number(ws[0].text) }];
  if (ws.length < 2) return [];
  const out: Candidate[] = [];
  const [first, second] = [ws[0], ws[1]];
  if (NUMBER.test(first.text) && second.box[0] - first.box[2] > APART * line.size) out.push({ line, at: "first", box: first.box, value: Number(first.text) });
  const [before, last] = [ws[ws.length - 2], ws[ws.length - 1]];
  if (NUMBER.test(last.text) && last.box[0] - before.box[2] > APART * line.size) out.push({ line, at: "last", box: last.box, value: Number(last.text) });
  return out;
}

/**
 * Where the page's text starts and ends: the 10th percentile of the text
 * lines' left edges and the 90th of their right edges (a stray line in the
 * margin moves neither), without the numbers cut off lines' ends.
 */
function textEdges(text: TextLine[], candidates: Candidate[]): [number, number] {
  const x0s: number[] = [];
  const x1s: number[] = [];
  for (const l of text) {
    const ws = l.words.length ? l.words : [{ text: "", box: l.box }];
    const cut = candidates.filter((c) => c.line === l);
    const rest = ws.filter((_w, i) => !cut.some((c) => (c.at === "first" && i === 0) || (c.at === "last" && i === ws.length - 1)));
    if (!rest.length) continue;
    x0s.push(Math.min(...rest.map((w) => w.box[0])));
    x1s.push(Math.max(...rest.map((w) => w.box[2])));
  }
  x0s.sort((a, b) => a - b);
  x1s.sort((a, b) => a - b);
  return [x0s[Math.floor(x0s.length * 0.1)] ?? 0, x1s[Math.min(x1s.length - 1, Math.floor(x1s.length * 0.9))] ?? 0];
}

/** Candidates whose `key` edge (0 left, 2 right) agrees within ALIGN of the next, top to bottom. */
function alignedColumns(cands: Candidate[], key: Key): Candidate[][] {
  const byEdge = [...cands].sort((a, b) => a.box[key] - b.box[key]);
  const groups: Candidate[][] = [];
  for (const c of byEdge) {
    const last = groups[groups.length - 1];
    if (last && c.box[key] - last[last.length - 1].box[key] <= ALIGN) last.push(c);
    else groups.push([c]);
  }
  return groups.map((g) => g.sort((a, b) => a.box[1] - b.box[1]));
}

function isLineNumbering(column: Candidate[], page: RawPage, side: Side): boolean {
  // Increasing down the page, mostly by one step.
  const steps = column.slice(1).map((c, i) => c.value - column[i].value);
  if (steps.some((s) => s <= 0)) return false;
  if (steps.length) {
    const count = new Map<number, number>();
    for (const s of steps) count.set(s, (count.get(s) ?? 0) + 1);
    const [step, n] = [...count].reduce((a, b) => (b[1] > a[1] ? b : a));
    if (!STEPS.has(step) || n < SAME_STEP * steps.length) return false;
  }
  // Nothing else in the column over its height, nor just above it (a table's "No." header over its row numbers),
  // and no rule across it.
  const x0 = Math.min(...column.map((c) => c.box[0]));
  const x1 = Math.max(...column.map((c) => c.box[2]));
  const h = column[0].box[3] - column[0].box[1];
  const top = column[0].box[1] - 3 * h;
  const bottom = column[column.length - 1].box[3];
  // A rule across the column between its numbers is a table's row separator: they are its first column.
  const across = page.rules.some((r) => r[2] - r[0] > r[3] - r[1] && r[0] < x1 && r[2] > x0 && r[1] > column[0].box[1] && r[3] < bottom);
  if (across) return false;
  const members = new Set(column.map((c) => c.line));
  const blocked = page.lines.some((l) => {
    if (members.has(l) || l.box[3] < top || l.box[1] > bottom) return false;
    const ws = l.words.length ? l.words : [{ text: "", box: l.box }];
    return ws.some((w) => w.box[0] < x1 && w.box[2] > x0);
  });
  if (blocked) return false;
  // Beside text lines, on their baselines, on the side away from the edge.
  const beside = column.filter((c) =>
    page.lines.some((l) => {
      if (members.has(l) && c.at === "whole") return false;
      const ws = l.words.filter((w) => w.box !== c.box && (side === "left" ? w.box[0] > c.box[2] : w.box[2] < c.box[0]));
      return ws.some((w) => sameBaseline(w.box, c.box));
    }),
  );
  return beside.length >= ON_BASELINE * column.length;
}

/** Boxes on one baseline: their bottoms agree within a third of the smaller's height (the number may be set smaller). */
function sameBaseline(a: Rect, b: Rect): boolean {
  const h = Math.min(a[3] - a[1], b[3] - b[1]);
  return Math.abs(a[3] - b[3]) <= 0.35 * h + 0.5 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.3 * h;
}

/** The line without its first or last word, spans cut to match. */
function withoutWord(line: TextLine, at: "first" | "last"): TextLine {
  const words = at === "first" ? line.words.slice(1) : line.words.slice(0, -1);
  const number = (at === "first" ? line.words[0] : line.words[line.words.length - 1]).text;
  const spans = at === "first" ? cutStart(line.spans, number) : cutEnd(line.spans, number);
  const box = words.map((w: Word) => w.box).reduce(union);
  const sizes = spans.filter((s) => s.text.trim());
  const size = sizes.some((s) => s.size === line.size) ? line.size : (sizes[0]?.size ?? line.size);
  return { ...line, words, spans, box, size };
}

function cutStart(spans: Span[], number: string): Span[] {
  const out = [...spans];
  while (out.length && !out[0].text.trim()) out.shift();
  if (!out.length) return out;
  const first = out[0];
  const text = first.text.replace(/^\s+/, "");
  if (!text.startsWith(number)) return out;
  const rest = text.slice(number.length).replace(/^\s+/, "");
  if (rest) out[0] = { ...first, text: rest };
  else out.shift();
  if (out.length) out[0] = { ...out[0], text: out[0].text.replace(/^\s+/, "") };
  return out;
}

function cutEnd(spans: Span[], number: string): Span[] {
  const out = [...spans];
  while (out.length && !out[out.length - 1].text.trim()) out.pop();
  if (!out.length) return out;
  const last = out[out.length - 1];
  const text = last.text.replace(/\s+$/, "");
  if (!text.endsWith(number)) return out;
  const rest = text.slice(0, -number.length).replace(/\s+$/, "");
  if (rest) out[out.length - 1] = { ...last, text: rest };
  else out.pop();
  if (out.length) out[out.length - 1] = { ...out[out.length - 1], text: out[out.length - 1].text.replace(/\s+$/, "") };
  return out;
}
