import type { RawPage, Rect, ScannedPage, TextLine } from "./types";

// Running headers, footers and page numbers: lines in the top or bottom
// margin band whose text (digits masked) recurs on many pages, and lone page
// numbers there on any page. They are page furniture, not body text.

const BAND = 0.1;

const keyOf = (line: TextLine) =>
  line.spans
    .map((s) => s.text)
    .join("")
    .toLowerCase()
    .replace(/\d+/g, "#")
    .replace(/\s+/g, " ")
    .trim();

const PAGE_NUMBER = /^(page\s*)?#(\s*(of|\/)\s*#)?$|^[-–—\s]*#[-–—\s]*$|^[ivxlc]{1,6}$/i;

/**
 * In the margin band and set apart from the body by whitespace: a body line
 * that happens to sit near the page edge (dense pages) runs on at its
 * neighbours' spacing.
 */
function inBand(page: RawPage, line: TextLine): boolean {
  const h = line.box[3] - line.box[1];
  // A line that shares its baseline with several others is a table row, not
  // a running title; a footer often sets a title, a notice and the page
  // number on one baseline.
  if (page.lines.filter((o) => o !== line && Math.min(o.box[3], line.box[3]) - Math.max(o.box[1], line.box[1]) > 0.5 * h).length >= 3) return false;
  // A caption over a table or a figure is close to what it captions.
  const boxes = [...page.lines.filter((o) => o !== line).map((o) => o.box), ...page.images, ...((page as Partial<ScannedPage>).tables ?? []).map((t) => t.box)];
  if (line.box[3] < page.height * BAND) return !boxes.some((b) => b[1] >= line.box[1] && b[1] < line.box[3] + 0.8 * h && overlapsX(b, line.box));
  if (line.box[1] > page.height * (1 - BAND)) return !boxes.some((b) => b[3] <= line.box[3] && b[3] > line.box[1] - 0.8 * h && overlapsX(b, line.box));
  return false;
}

const overlapsX = (a: Rect, b: Rect) => a[0] < b[2] && b[0] < a[2];

export function dropFurniture<P extends RawPage>(pages: P[]): P[] {
  const seen = new Map<string, number>();
  for (const page of pages) {
    const keys = new Set(page.lines.filter((l) => inBand(page, l)).map(keyOf));
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  const minRepeats = Math.max(2, Math.ceil(pages.length * 0.3));
  const body = bodySize(pages);
  const isFurniture = (page: RawPage, line: TextLine) => {
    if (!inBand(page, line)) return false;
    const key = keyOf(line);
    // Where nothing repeats, place and type decide: the outermost line of the
    // margin band, set apart from the body and smaller than it.
    return PAGE_NUMBER.test(key) || (seen.get(key) ?? 0) >= minRepeats || (line.size < 0.95 * body && outermost(page, line));
  };
  return pages.map((page) => ({ ...page, lines: page.lines.filter((l) => !isFurniture(page, l)) }));
}

/**
 * Nothing but its own baseline's segments between the line and the page's
 * edge: on a page with no other to repeat on, a running title set smaller
 * than the body at the very top or foot of the page is furniture by its
 * place and type alone.
 */
function outermost(page: RawPage, line: TextLine): boolean {
  const top = line.box[3] < page.height * BAND;
  return !page.lines.some((o) => o !== line && (top ? o.box[3] <= line.box[1] : o.box[1] >= line.box[3]));
}

/** The size most characters are set in (document.ts has the full rule; furniture runs before it). */
function bodySize(pages: RawPage[]): number {
  const weight = new Map<number, number>();
  for (const p of pages) for (const l of p.lines) weight.set(l.size, (weight.get(l.size) ?? 0) + l.spans.reduce((n, s) => n + s.text.length, 0));
  return [...weight].reduce((best, cur) => (cur[1] > best[1] ? cur : best), [10, 0])[0];
}
