import { type Glyph, type GlyphStyle, lineBox, type Rect, type TextLine } from "./model";

// Lines of glyphs into paragraphs as Word holds them: runs of one style,
// alignment and indents measured against the column the lines sit in, the
// gap above and the line pitch. A line joins the paragraph above when it
// keeps the pitch (the first step at most 2.1 font sizes) and nearly its
// left edge; a larger gap, a short line above it, or a bullet starts a new
// paragraph.

export type Alignment = "left" | "center" | "right" | "justify";

export interface Run extends GlyphStyle {
  text: string;
}

export interface ParagraphSpec {
  runs: Run[];
  alignment: Alignment;
  /** Points from the column's left edge. */
  indentLeft: number;
  /** Points, relative to indentLeft (negative: hanging). */
  firstLine: number;
  /** Points from the column's right edge; negative reaches into the margin (a line centred on the page, not the column). */
  indentRight: number;
  /** Points between baselines; null for one line. */
  pitch: number | null;
  bbox: Rect;
}

const BULLET = /^\s*([•◦▪‣●○■□–—-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s/u;

/**
 * `pageCentre`: where the page's middle is, when it is not the column's
 * (margins of unequal width); a line centred there is centred in Word by
 * reaching into the right margin.
 */
export function paragraphsOf(lines: TextLine[], column: [number, number], pageCentre?: number): ParagraphSpec[] {
  const groups: TextLine[][] = [];
  let pitch: number | null = null;
  let prev: { box: Rect; base: number } | null = null;
  for (const line of joinSameBaseline(lines)) {
    const box = lineBox(line);
    const base = line.glyphs[0].baseline;
    const size = Math.max(...line.glyphs.map((g) => g.size));
    const current = groups[groups.length - 1];
    let joins = false;
    if (prev && current) {
      const step = base - prev.base;
      const text = line.glyphs.map((g) => g.c).join("");
      // A line that stops well short of the (long) line below it ends its paragraph.
      const width = box[2] - box[0];
      const short = width > size * 15 && box[2] - prev.box[2] > width * 0.25;
      joins =
        step > 0 &&
        (pitch === null ? step <= size * 2.1 : Math.abs(step - pitch) <= size * 0.4) &&
        Math.abs(box[0] - prev.box[0]) < size * 4 &&
        !short &&
        !BULLET.test(text);
      if (joins) pitch ??= step;
    }
    if (joins) current.push(line);
    else {
      groups.push([line]);
      pitch = null;
    }
    prev = { box, base };
  }
  return groups.map((g) => paragraphOf(g, column, pageCentre));
}

/** MuPDF may cut one printed line into several (a wide gap, a font change): put them back together. */
function joinSameBaseline(lines: TextLine[]): TextLine[] {
  const out: TextLine[] = [];
  for (const line of lines) {
    const last = out[out.length - 1];
    const a = last?.glyphs[last.glyphs.length - 1];
    const b = line.glyphs[0];
    if (a && Math.abs(a.baseline - b.baseline) <= a.size * 0.3 && b.x0 >= a.x1 - 1) {
      const gap = b.x0 - a.x1 > a.size * 0.15 && a.c !== " " && b.c !== " ";
      last.glyphs = gap ? [...last.glyphs, { ...a, c: " ", x0: a.x1, x1: b.x0 }, ...line.glyphs] : [...last.glyphs, ...line.glyphs];
    } else out.push({ glyphs: [...line.glyphs] });
  }
  return out;
}

function paragraphOf(lines: TextLine[], [left, right]: [number, number], pageCentre?: number): ParagraphSpec {
  const boxes = lines.map(lineBox);
  const bbox: Rect = [Math.min(...boxes.map((b) => b[0])), boxes[0][1], Math.max(...boxes.map((b) => b[2])), boxes[boxes.length - 1][3]];
  const size = Math.max(...lines[0].glyphs.map((g) => g.size));
  let alignment = alignmentOf(boxes, [left, right], size);
  let indentRight = 0;
  if (alignment === "left" && pageCentre !== undefined && alignmentOf(boxes, [left, 2 * pageCentre - left], size) === "center") {
    alignment = "center";
    indentRight = right - (2 * pageCentre - left);
  }
  const rest = boxes.length > 1 ? Math.min(...boxes.slice(1).map((b) => b[0])) : boxes[0][0];
  const indentLeft = alignment === "left" || alignment === "justify" ? Math.max(0, rest - left) : 0;
  const firstLine = alignment === "left" || alignment === "justify" ? boxes[0][0] - left - indentLeft : 0;
  const bases = lines.map((l) => l.glyphs[0].baseline);
  const steps = bases.slice(1).map((b, i) => b - bases[i]);
  const pitch = steps.length ? steps.sort((a, b) => a - b)[Math.floor(steps.length / 2)] : null;
  return { runs: runsOf(lines), alignment, indentLeft, firstLine, indentRight, pitch, bbox };
}

function alignmentOf(boxes: Rect[], [left, right]: [number, number], size: number): Alignment {
  const tol = Math.max(2, size * 0.3);
  const lefts = boxes.map((b) => b[0]);
  const rights = boxes.map((b) => b[2]);
  const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
  const centres = boxes.map((b) => (b[0] + b[2]) / 2);
  const mid = (left + right) / 2;
  if (boxes.length > 1) {
    const body = rights.slice(0, -1);
    if (spread(lefts) <= tol && spread(body) <= tol && Math.abs(Math.max(...body) - right) <= size * 2 && boxes.length > 2) return "justify";
    if (spread(lefts) > tol && spread(rights) <= tol) return "right";
    if (spread(lefts) > tol && centres.every((c) => Math.abs(c - mid) <= tol)) return "center";
    return "left";
  }
  const [x0, , x1] = boxes[0];
  if (x0 - left > size * 2 && Math.abs((x0 + x1) / 2 - mid) <= tol) return "center";
  if (x0 - left > size * 2 && Math.abs(x1 - right) <= tol) return "right";
  return "left";
}

const sameStyle = (a: GlyphStyle, b: GlyphStyle) =>
  a.font === b.font && a.size === b.size && a.bold === b.bold && a.italic === b.italic && a.underline === b.underline && a.color === b.color;

/** Runs of one style; lines are joined with a space (Word wraps them again). */
function runsOf(lines: TextLine[]): Run[] {
  const runs: Run[] = [];
  const push = (g: Glyph | GlyphStyle, text: string) => {
    const last = runs[runs.length - 1];
    if (last && sameStyle(last, g)) last.text += text;
    else runs.push({ font: g.font, size: g.size, bold: g.bold, italic: g.italic, underline: g.underline, color: g.color, text });
  };
  lines.forEach((line, i) => {
    if (i > 0) {
      const last = runs[runs.length - 1];
      if (last && !last.text.endsWith(" ")) last.text += " ";
    }
    for (const g of line.glyphs) push(g, g.c);
  });
  for (const r of runs) r.text = r.text.replace(/\s+$/u, (s) => (s.includes(" ") ? " " : s));
  const last = runs[runs.length - 1];
  if (last) last.text = last.text.trimEnd();
  return runs.filter((r) => r.text !== "");
}
