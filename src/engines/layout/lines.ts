import { bidiGap, isRtlText } from "./bidi";
import { type Glyph, union } from "./geometry";
import type { Rect, Span, TextLine, Word } from "./types";

// Characters to visual line segments: split at gutters, joined again across
// MuPDF's own line breaks on one baseline.

/** A gap wider than this many font sizes separates two segments (cells, columns). */
export const SEGMENT_GAP = 1.5;
/** Points per bucket when looking for lines on one baseline. */
const BUCKET = 4;

/** Splits a MuPDF line where the gap between two inked characters is a gutter. */
export function splitSegments(line: Glyph[]): Glyph[][] {
  const out: Glyph[][] = [];
  let current: Glyph[] = [];
  let lastInk: Glyph | null = null;
  let blank = false;
  for (const g of line) {
    const ink = g.c.trim() !== "";
    // Code aligns with runs of spaces ("SELECT     name"): in a fixed-pitch
    // line, a gap made of space characters is indentation, not a gutter.
    const typed = blank && g.style.mono && lastInk?.style.mono;
    if (ink && lastInk && !typed && g.box[0] - lastInk.box[2] > SEGMENT_GAP * Math.max(g.size, lastInk.size)) {
      out.push(current);
      current = [];
    }
    if (ink) {
      lastInk = g;
      blank = false;
    } else blank = true;
    current.push(g);
  }
  out.push(current);
  return out.filter((s) => s.some((g) => g.c.trim() !== ""));
}

const sameSpan = (a: Glyph, b: Glyph) =>
  a.link === b.link && a.style.bold === b.style.bold && a.style.italic === b.style.italic && a.style.mono === b.style.mono && Math.abs(a.size - b.size) < 0.5;

export function toLine(glyphs: Glyph[]): TextLine {
  // Trim leading and trailing blanks so boxes hug the ink.
  let start = 0;
  let end = glyphs.length;
  while (start < end && glyphs[start].c.trim() === "") start++;
  while (end > start && glyphs[end - 1].c.trim() === "") end--;
  const ink = glyphs.slice(start, end);
  const spans: Span[] = [];
  // Text is collected in arrays and joined once: a string grown a character
  // at a time stays a rope of tiny pieces, several times its size, and a
  // long document keeps every page's lines until the end.
  const parts: string[][] = [];
  let prev: Glyph | null = null;
  // Spans keep boundary spaces: they say whether two segments are two words.
  for (const g of glyphs) {
    const last = spans[spans.length - 1];
    if (last && prev && bidiGap(prev, g)) parts[parts.length - 1].push(" ");
    if (last && prev && sameSpan(prev, g)) {
      parts[parts.length - 1].push(g.c);
      last.box = union(last.box, g.box);
    } else {
      spans.push({ text: "", size: g.size, box: g.box, link: g.link, ...g.style });
      parts.push([g.c]);
    }
    prev = g;
  }
  spans.forEach((span, i) => {
    span.text = parts[i].join("");
  });
  return { box: ink.map((g) => g.box).reduce(union), spans, words: wordsOf(ink), size: dominantSize(ink) };
}

/** A combining mark (Arabic vowel signs, tanween) rides on a letter: it neither starts a word nor widens it. */
const MARK = /^\p{M}+$/u;

function wordsOf(glyphs: Glyph[]): Word[] {
  const words: Word[] = [];
  let text: string[] = [];
  let box: Rect | null = null;
  let prev: Glyph | null = null;
  const flush = () => {
    // A mark reported before its letter (Arabic fonts draw it apart) goes after the word's letters.
    const lead = text.findIndex((c) => !MARK.test(c));
    if (lead > 0) text = [...text.slice(lead), ...text.slice(0, lead)];
    if (text.length) words.push({ text: text.join(""), box: box ?? prev?.box ?? [0, 0, 0, 0] });
    text = [];
    box = null;
  };
  for (const g of glyphs) {
    // Where right-to-left and left-to-right runs meet apart on the page ("قطط" and "47"), two words meet.
    if (g.c.trim() === "" || (prev && bidiGap(prev, g))) flush();
    if (g.c.trim() !== "") {
      text.push(g.c);
      if (!MARK.test(g.c)) box = box ? union(box, g.box) : g.box;
    }
    prev = g;
  }
  flush();
  return words;
}

function dominantSize(glyphs: Glyph[]): number {
  const counts = new Map<number, number>();
  for (const g of glyphs) if (g.c.trim()) counts.set(Math.round(g.size * 2) / 2, (counts.get(Math.round(g.size * 2) / 2) ?? 0) + 1);
  let best = 0;
  let bestCount = -1;
  for (const [size, n] of counts) if (n > bestCount) [best, bestCount] = [size, n];
  return best;
}

/**
 * MuPDF sometimes cuts one visual line into several (a bullet glyph in a
 * symbol font, a bold lead-in): segments on one baseline with a word-sized
 * gap become one line again.
 */
export function joinBaselines(lines: TextLine[]): TextLine[] {
  // The page's base direction orders the segments of a row: an English
  // word inside Arabic text is its own segment and must not flip the row.
  const rtl = isRtlText(lines.map((l) => l.spans.map((s) => s.text).join("")).join(""));
  // Left to right, so a line's left neighbour is always placed first.
  const sorted = [...lines].sort((a, b) => a.box[0] - b.box[0]);
  const out: TextLine[] = [];
  // Lines bucketed by the middle of their height: a mate sits in the same or a neighbouring bucket.
  const buckets = new Map<number, TextLine[]>();
  const bucketOf = (l: TextLine) => Math.round((l.box[1] + l.box[3]) / 2 / BUCKET);
  const byTop = byTopEdge(lines);
  for (const line of sorted) {
    const b = bucketOf(line);
    const near = [b - 1, b, b + 1].flatMap((k) => buckets.get(k) ?? []);
    const mate = near.find(
      (o) =>
        sameBaseline(o, line) &&
        line.box[0] - o.box[2] <= reach(o) * Math.max(o.size, line.size) &&
        line.box[0] - o.box[2] > -0.3 * Math.min(o.size, line.size) &&
        !gutterBetween(o, line, byTop),
    );
    if (mate) {
      const gap = line.box[0] - mate.box[2] > 0.15 * line.size;
      // The space goes between the two, which is after `line` when it is read first.
      const at = rtl ? line.spans.length - 1 : 0;
      const span = line.spans[at];
      // Only the two ends that meet count: a title span ending in a space ("IBM DB2 ") still needs one before it.
      const spaced = rtl
        ? /^\s/.test(mate.spans[0]?.text ?? "") || /\s$/.test(span?.text ?? "")
        : /\s$/.test(mate.spans[mate.spans.length - 1]?.text ?? "") || /^\s/.test(span?.text ?? "");
      if (gap && span && !spaced) line.spans[at] = { ...span, text: rtl ? `${span.text} ` : ` ${span.text}` };
      // The size of the line is its text's, not a bullet's from a symbol font
      // (or a small "Chapter 1." tag set beside a chapter title): compared before the merge.
      const larger = inkLength(line) > inkLength(mate);
      // Right-to-left text reads from the right: the segment further left comes later.
      if (rtl) {
        mate.spans.unshift(...line.spans);
        mate.words.unshift(...line.words);
      } else {
        mate.spans.push(...line.spans);
        // One word drawn in two runs ("Parastratiosphecomyia" + "stratiosph")
        // stays one word; text clipped against the next cell's ("Elizab" +
        // "2165", "e" + "SPPS") does not run on in lower case.
        const [first, ...rest] = line.words;
        const last = mate.words[mate.words.length - 1];
        const runsOn = first && last && /\p{Ll}$/u.test(last.text) && /^\p{Ll}/u.test(first.text);
        if (!gap && !spaced && runsOn && first.box[0] - last.box[2] < 0.15 * line.size) {
          mate.words[mate.words.length - 1] = { text: last.text + first.text, box: union(last.box, first.box) };
          mate.words.push(...rest);
        } else mate.words.push(...line.words);
      }
      mate.box = union(mate.box, line.box);
      if (larger) mate.size = line.size;
    } else {
      const copy = { ...line, spans: [...line.spans], words: [...line.words] };
      out.push(copy);
      buckets.set(b, [...(buckets.get(b) ?? []), copy]);
    }
  }
  return out;
}

/**
 * How far, in font sizes, a segment reaches for the next on its baseline. A
 * word drawn alone with its space glyph after it says its line goes on:
 * justified text in narrow columns stretches word spaces past a cell gap,
 * and Chromium draws each such word as a line of its own. The last word of
 * a column's line carries no space, and a whole line ending in a space
 * (Word's) keeps the usual reach, so gutters still part columns.
 */
const reach = (l: TextLine) => (/^\S+ $/.test(l.spans[l.spans.length - 1]?.text ?? "") ? JUSTIFIED_GAP : SEGMENT_GAP);
const JUSTIFIED_GAP = 4;

/** A page's segments by top edge, and the tallest one's height, to find a band's segments by binary search. */
interface ByTop {
  lines: TextLine[];
  tallest: number;
}

function byTopEdge(lines: TextLine[]): ByTop {
  return { lines: [...lines].sort((a, b) => a.box[1] - b.box[1]), tallest: Math.max(0, ...lines.map((l) => l.box[3] - l.box[1])) };
}

/** The first index whose top edge is at `y` or below. */
function firstFrom(byTop: ByTop, y: number): number {
  let [lo, hi] = [0, byTop.lines.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byTop.lines[mid].box[1] < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A bullet or an item number ("•", "12.", "(a)"): what a list sets apart from its text. */
const MARKER = /^\s*(\S|\(?[\p{L}\p{N}]{1,3}[.)])\s*$/u;

/**
 * Whether the whitespace between two segments on one baseline is part of a
 * gutter: a strip of it stays empty through the rows above and below, with
 * text on both sides of it there. Justified word gaps in narrow columns can
 * be as wide as the gutter beside them, but they do not line up from row to
 * row; a gutter does, so a line is never joined to its neighbour across the
 * column gap (a heading beside a body line, the next column's line).
 * `byTop`: every segment of the page, by top edge.
 */
function gutterBetween(a: TextLine, b: TextLine, byTop: ByTop): boolean {
  const size = Math.max(a.size, b.size);
  const [x0, x1] = [a.box[2], b.box[0]];
  if (x1 - x0 < 0.5 * size || MARKER.test(a.spans.map((s) => s.text).join(""))) return false;
  const h = Math.max(a.box[3] - a.box[1], b.box[3] - b.box[1]);
  const top = Math.min(a.box[1], b.box[1]) - 2.5 * h;
  const bottom = Math.max(a.box[3], b.box[3]) + 2.5 * h;
  let free: [number, number][] = [[x0, x1]];
  const near: TextLine[] = [];
  for (let i = firstFrom(byTop, top - byTop.tallest); i < byTop.lines.length; i++) {
    const o = byTop.lines[i];
    if (o.box[1] > bottom) break;
    if (o.box[3] < top || o === a || o === b || sameBaseline(o, a) || sameBaseline(o, b)) continue;
    near.push(o);
    free = free.flatMap(([f0, f1]) =>
      o.box[2] <= f0 || o.box[0] >= f1
        ? [[f0, f1] as [number, number]]
        : [[f0, o.box[0]] as [number, number], [o.box[2], f1] as [number, number]].filter(([p, q]) => q - p > 0),
    );
  }
  const reachX = 15 * size;
  return free.some(([f0, f1]) => {
    if (f1 - f0 < 0.3 * size) return false;
    const left = near.filter((o) => o.box[2] <= f0 + 0.5 && o.box[2] > f0 - reachX).length;
    const right = near.filter((o) => o.box[0] >= f1 - 0.5 && o.box[0] < f1 + reachX).length;
    return left >= 2 && right >= 2;
  });
}

const inkLength = (l: TextLine) => l.spans.reduce((n, s) => n + s.text.replace(/\s/g, "").length, 0);

function sameBaseline(a: TextLine, b: TextLine): boolean {
  const overlap = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
  return overlap > 0.6 * Math.min(a.box[3] - a.box[1], b.box[3] - b.box[1]);
}
