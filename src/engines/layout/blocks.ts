import { union } from "./geometry";
import { dropPrefix, joinLines, listMarker, plainText } from "./inline";
import type { Block, Rect, Table, TextLine } from "./types";

// Ordered page items become blocks: lines run together into paragraphs
// while they stay in one column, at one size and close together; a list
// marker, a change of size or weight, a wide gap or a short last line ends
// a paragraph. Heading levels are set later, across the whole document.

export type Item = { kind: "line"; box: Rect; line: TextLine } | { kind: "table"; box: Rect; table: Table } | { kind: "image"; box: Rect; index: number };

/** A heading before its level is known: `level` is 0 until levels are assigned. */
export type HeadingBlock = Extract<Block, { kind: "heading" }>;

const lineText = (l: TextLine) => l.spans.map((s) => s.text).join("");
const allBold = (l: TextLine) => l.spans.every((s) => s.bold || s.text.trim() === "");
const allMono = (l: TextLine) => l.spans.every((s) => s.mono || s.text.trim() === "");

export function assemble(items: Item[], bodySize: number): Block[] {
  const rows = boldRows(items.flatMap((it) => (it.kind === "line" ? [it.line] : [])));
  const blocks: Block[] = [];
  let group: TextLine[] = [];
  const flush = () => {
    // A bullet glyph left alone (its text unreadable) says nothing.
    if (group.length && /[\p{L}\p{N}]/u.test(group.map(lineText).join(""))) blocks.push(classify(group, bodySize, rows));
    group = [];
  };
  for (const item of items) {
    if (item.kind !== "line") {
      flush();
      blocks.push(item.kind === "table" ? { kind: "table", table: item.table, box: item.box } : { kind: "image", index: item.index, box: item.box });
      continue;
    }
    if (group.length && !continues(group, item.line)) flush();
    group.push(item.line);
  }
  flush();
  return nestLists(mergeCode(blocks));
}

function continues(group: TextLine[], next: TextLine): boolean {
  const last = group[group.length - 1];
  const size = last.size || next.size;
  if (Math.abs(next.size - last.size) > Math.max(0.5, 0.06 * size)) return false;
  const gap = next.box[1] - last.box[3];
  if (gap < -0.5 * size || gap > 0.8 * size) return false;
  if (allMono(last) !== allMono(next)) return false;
  // Code keeps going whatever its indentation.
  if (allMono(last)) return true;
  if (next.box[0] > last.box[2] || next.box[2] < last.box[0]) return false;
  if (listMarker(lineText(next))) return false;
  if (allBold(last) !== allBold(next) && (allBold(last) || group.length === 1)) return false;
  // A sentence that ends well short of the column's right edge ends its paragraph.
  const right = Math.max(...group.map((l) => l.box[2]));
  const left = Math.min(...group.map((l) => l.box[0]));
  const short = last.box[2] < right - 0.15 * (right - left) || (group.length === 1 && next.box[2] > last.box[2] + 3 * size);
  return !(short && /[.:!?]["”)]?\s*$/.test(lineText(last)));
}

/**
 * Bold segments three or more to a baseline are a table's header row (its
 * rows found no table), not headings: a heading has its line to itself in
 * its column, and the other columns' lines beside it are body text.
 */
function boldRows(lines: TextLine[]): Set<TextLine> {
  const bold = lines.filter(allBold).sort((a, b) => a.box[1] - b.box[1]);
  const out = new Set<TextLine>();
  for (let i = 0; i < bold.length; i++) {
    const l = bold[i];
    const h = l.box[3] - l.box[1];
    const mates = [l];
    for (let k = i + 1; k < bold.length && bold[k].box[1] < l.box[3]; k++) {
      const o = bold[k];
      if (Math.min(o.box[3], l.box[3]) - Math.max(o.box[1], l.box[1]) > 0.5 * Math.min(h, o.box[3] - o.box[1])) mates.push(o);
    }
    if (mates.length >= 3) for (const m of mates) out.add(m);
  }
  return out;
}

function classify(lines: TextLine[], bodySize: number, rows: Set<TextLine>): Block {
  const box = lines.map((l) => l.box).reduce(union);
  if (lines.every(allMono)) {
    const left = Math.min(...lines.map((l) => l.box[0]));
    const charWidth = 0.6 * (lines[0].size || bodySize);
    return { kind: "code", lines: lines.map((l) => " ".repeat(Math.max(0, Math.round((l.box[0] - left) / charWidth))) + lineText(l).trimEnd()), box };
  }
  const spans = joinLines(lines.map((l) => l.spans));
  const raw = spans.map((s) => s.text).join("");
  const text = plainText(spans);
  const size = Math.max(...lines.map((l) => l.size));
  const heading = isHeading(lines, text, size, bodySize) && !(size < bodySize * 1.15 && lines.some((l) => rows.has(l)));
  const marker = listMarker(raw);
  // "(1) Scope" set larger than the body is a numbered heading, not a list; a bullet always opens an item.
  if (heading && size > bodySize * 1.05 && !(marker && !marker.ordered)) return { kind: "heading", level: 0, spans, size, box };
  if (marker) return { kind: "list-item", ordered: marker.ordered, marker: marker.marker, depth: 0, spans: dropPrefix(spans, raw), box };
  if (heading) return { kind: "heading", level: 0, spans, size, box };
  return { kind: "paragraph", spans, box };
}

function isHeading(lines: TextLine[], text: string, size: number, bodySize: number): boolean {
  if (lines.length > 3 || text.length > 200 || !/\p{L}/u.test(text)) return false;
  // A heading is a title, not sentences: one full stop followed by another sentence makes it a paragraph.
  if (/\p{Ll}{2}[.!?]\s+\p{Lu}/u.test(text)) return false;
  if (size >= bodySize * 1.15) return !/[,;]$/.test(text);
  if (size >= bodySize * 1.05 && lines.length === 1 && text.length <= 100) return !/[.,;:]$/.test(text);
  const numbered = /^(\d+(\.\d+)*\.?|[A-Z]\.|[IVX]+\.)\s+\p{L}/u.test(text);
  return lines.every(allBold) && size >= bodySize * 0.95 && text.length <= 120 && lines.length <= 2 && (numbered || !/[.:,;]$/.test(text));
}

/** Consecutive code blocks (a blank line apart on the page) are one listing. */
function mergeCode(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const last = out[out.length - 1];
    if (b.kind === "code" && last?.kind === "code" && b.box[1] - last.box[3] < (2.5 * (last.box[3] - last.box[1])) / Math.max(1, last.lines.length)) {
      out[out.length - 1] = { ...last, lines: [...last.lines, "", ...b.lines], box: union(last.box, b.box) };
    } else out.push(b);
  }
  return out;
}

/** Nesting from indentation: markers further right than the run's first are deeper. */
function nestLists(blocks: Block[]): Block[] {
  const stack: number[] = [];
  return blocks.map((b) => {
    if (b.kind !== "list-item") {
      if (b.kind !== "paragraph") stack.length = 0;
      return b;
    }
    const x = b.box[0];
    while (stack.length && x < stack[stack.length - 1] - 4) stack.pop();
    if (!stack.length || x > stack[stack.length - 1] + 8) stack.push(x);
    return { ...b, depth: Math.min(stack.length - 1, 5) };
  });
}
