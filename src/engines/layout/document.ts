import { isMupdfError, type PDFDocument } from "../mupdf/core/document";
import type { Mupdf } from "../mupdf/core/loader";
import { assemble, type Item } from "./blocks";
import { extractPage } from "./extract";
import { dropFurniture } from "./furniture";
import { assignHeadingLevels } from "./headings";
import { latticeTables } from "./lattice";
import { dropLineNumbers, type LineNumberMemory, newLineNumberMemory } from "./line-numbers";
import { type OcrText, ocrRawPage } from "./ocr-lines";
import { readingOrder } from "./order";
import { PICTURES_PER_CALL, type PictureWords, pictureLines, pictureRegions } from "./pictures";
import { streamTables } from "./stream";
import { tocTables } from "./toc";
import type { Block, PageModel, RawPage, Rect, ScannedPage, Table, TextLine } from "./types";

/**
 * Reads every page of an open document, one page at a time: each page's
 * MuPDF objects are destroyed and MuPDF's store emptied before the next, so
 * memory stays bounded by one page plus the plain-data models.
 */
export function readPages(doc: PDFDocument, mupdf: Mupdf): ScannedPage[] {
  const pages: ScannedPage[] = [];
  const count = doc.countPages();
  const numbers = newLineNumberMemory();
  for (let i = 0; i < count; i++) {
    pages.push(readPage(doc, mupdf, i, numbers));
  }
  return pages;
}

/** Reads a scanned page's text with OCR (src/engines/ocr/page.ts). */
export type PageOcr = (doc: PDFDocument, mupdf: Mupdf, index: number) => Promise<OcrText>;

/** Reads the picture drawn at `region` (points of page `index`) with OCR; best effort: nothing read is no words. */
export type PictureOcr = (doc: PDFDocument, mupdf: Mupdf, index: number, region: Rect) => Promise<PictureWords>;

/**
 * As readPages, but a page that needs OCR (a scan) is read by `ocr`: its
 * lines and tables come from the recognised words, its picture is left out
 * (the text is what it showed). It stays marked needsOcr. With `pictures`,
 * the pictures of text pages that carry no text (pictures.ts: large enough,
 * a few a page and a call) are read too, and their words join the page's
 * lines before its tables are found, when they make a table (showsTable).
 * `read` counts the pictures so read.
 */
export async function readPagesWithOcr(
  doc: PDFDocument,
  mupdf: Mupdf,
  ocr: PageOcr,
  pictures?: PictureOcr,
  read: { pictures: number } = { pictures: 0 },
): Promise<ScannedPage[]> {
  const pages: ScannedPage[] = [];
  const count = doc.countPages();
  const numbers = newLineNumberMemory();
  let budget = pictures ? PICTURES_PER_CALL : 0;
  const readPicture: PictureOcr = pictures ?? (async () => ({ words: [] }));
  for (let i = 0; i < count; i++) {
    const raw = rawPage(doc, mupdf, i);
    if (raw.needsOcr) pages.push(scanned(ocrRawPage(i, await ocr(doc, mupdf, i)), numbers));
    else {
      for (const region of budget > 0 ? pictureRegions(raw).slice(0, budget) : []) {
        budget--;
        const lines = pictureLines(raw, await readPicture(doc, mupdf, i, region));
        if (!lines.length || !showsTable(raw, region, lines)) continue;
        read.pictures++;
        raw.lines.push(...lines);
      }
      pages.push(scanned(raw, numbers));
    }
    mupdf.emptyStore();
  }
  return pages;
}

/** Of a picture's characters, this share must lie in a table its words make for the picture to be read. */
const PICTURE_TABLE_SHARE = 0.6;

/**
 * Whether the words OCR read in a picture make a table (with the page's
 * rules inside the picture, if any): a picture of a table is what the
 * text layer lacks. A figure's labels, a screenshot of a dialog or the
 * odd word OCR finds in a photo stay part of their picture, as docling
 * keeps them, rather than loose lines between the paragraphs.
 */
function showsTable(page: RawPage, region: Rect, lines: TextLine[]): boolean {
  // Read as the whole page will be read (scanned), so what is taken is what the page makes of it.
  const tables = findTables({ ...page, lines, rules: page.rules.filter((r) => inside(r, region)) });
  const chars = (l: TextLine) => l.spans.reduce((n, s) => n + s.text.trim().length, 0);
  const all = lines.reduce((n, l) => n + chars(l), 0);
  const held = lines.filter((l) => tables.some((t) => inside(l.box, t.box))).reduce((n, l) => n + chars(l), 0);
  return all > 0 && held >= PICTURE_TABLE_SHARE * all;
}

/**
 * One page MuPDF cannot interpret (a broken content stream) leaves a blank
 * page rather than failing a 2,000-page conversion; a document it cannot
 * open at all still fails (withPdf).
 */
function readPage(doc: PDFDocument, mupdf: Mupdf, index: number, numbers: LineNumberMemory): ScannedPage {
  return scanned(rawPage(doc, mupdf, index), numbers);
}

function rawPage(doc: PDFDocument, mupdf: Mupdf, index: number): RawPage {
  let page: ReturnType<PDFDocument["loadPage"]> | null = null;
  try {
    page = doc.loadPage(index);
    return extractPage(page, index);
  } catch (err) {
    if (!isMupdfError(err)) throw err;
    return { index, width: 0, height: 0, lines: [], rules: [], images: [], needsOcr: false };
  } finally {
    page?.destroy();
    mupdf.emptyStore();
  }
}

/**
 * Margin line numbers go first (line-numbers.ts: a column of them would
 * read as a table's), then tables are found while the page's word boxes are
 * at hand; then the words and rules are let go, which keeps a 2,000-page
 * document's models small. `numbers` carries the line-number columns of
 * the pages read before.
 */
export function scanned(raw: RawPage, numbers?: LineNumberMemory): ScannedPage {
  const page = dropLineNumbers(raw, numbers);
  const tables = findTables(page);
  const lines = page.lines.filter((l) => !tables.some((t) => inside(l.box, t.box))).map((l) => ({ ...l, words: [] }));
  return { ...page, lines, rules: [], tables };
}

/** Page furniture dropped, blocks in reading order, heading levels set. */
export function layoutDocument(raw: ScannedPage[]): PageModel[] {
  const pages = dropFurniture(raw);
  const body = bodySize(pages);
  return assignHeadingLevels(pages.map((p) => layoutPage(p, pageBodySize(p, body))));
}

/**
 * A page set in smaller type than the document's body (a solution brief
 * inside a manual) ranks its headings against its own text, or its section
 * titles would read as body text. A page that also holds body-size text (a
 * reference list under a paragraph) keeps the document's body size.
 */
function pageBodySize(page: RawPage, body: number): number {
  const own = bodySize([page]);
  const chars = (size?: number) =>
    page.lines.reduce((n, l) => n + (size === undefined || l.size === size ? l.spans.reduce((k, s) => k + s.text.length, 0) : 0), 0);
  const all = chars();
  return own < body && chars(own) >= 300 && chars(own) >= 0.6 * all && chars(body) < 0.1 * all ? own : body;
}

export function layoutPage(page: ScannedPage, bodySize: number): PageModel {
  const { tables } = page;
  const images = page.images.filter((img) => !tables.some((t) => inside(img, t.box))).map((box, index): Item => ({ kind: "image", box, index }));
  // A picture with text set over it (a cover's background) would bridge
  // every gutter and interleave the columns on it: it takes no part in the
  // ordering and goes before the first item it holds.
  const behind = images.filter((img) => page.lines.filter((l) => inside(l.box, img.box)).length >= 3);
  const items: Item[] = [
    ...page.lines.map((line): Item => ({ kind: "line", box: line.box, line })),
    ...tables.map((table): Item => ({ kind: "table", box: table.box, table })),
    ...images.filter((img) => !behind.includes(img)),
  ];
  // Drawings made of vector shapes order the page as pictures do, and say nothing themselves.
  const drawings = (page.graphics ?? []).filter((g) => !tables.some((t) => inside(g, t.box))).map((box) => ({ kind: "drawing" as const, box }));
  const ordered = readingOrder<Item | (typeof drawings)[number]>([...items, ...drawings], (it) => it.kind === "drawing").filter(
    (it): it is Item => it.kind !== "drawing",
  );
  for (const img of behind) {
    const at = ordered.findIndex((it) => inside(it.box, img.box));
    ordered.splice(at < 0 ? ordered.length : at, 0, img);
  }
  return { index: page.index, blocks: footnotesLast(assemble(ordered, bodySize), page, bodySize), needsOcr: page.needsOcr };
}

const FOOTNOTE_MARK = /^\s*(\d{1,3}[).]?|[*†‡§¹²³⁴⁵⁶⁷⁸⁹])\s*\S/u;

/**
 * Footnotes (small type in the lower part of the page, opening with a note
 * mark) go after the page's body: in a two-column page the left column's
 * notes would otherwise interrupt the text between the columns.
 */
function footnotesLast(blocks: Block[], page: RawPage, bodySize: number): Block[] {
  const isNote = (b: Block) =>
    (b.kind === "paragraph" || b.kind === "list-item") &&
    b.box[1] > page.height * 0.6 &&
    Math.max(...b.spans.map((s) => s.size)) <= bodySize * 0.85 &&
    (b.kind === "list-item" || FOOTNOTE_MARK.test(b.spans.map((s) => s.text).join("")));
  return [...blocks.filter((b) => !isNote(b)), ...blocks.filter(isNote)];
}

/** Lattice first; then tables of contents and stream only among the lines no ruled table took. */
export function findTables(page: RawPage): Table[] {
  const lattice = latticeTables(
    page.rules,
    page.lines.flatMap((l) => l.words),
  );
  const rest: TextLine[] = page.lines.filter((l) => !lattice.some((t) => inside(l.box, t.box)));
  const toc = tocTables(rest);
  return [
    ...lattice,
    ...toc,
    ...streamTables(
      rest.filter((l) => !toc.some((t) => inside(l.box, t.box))),
      page.rules,
      page.needsOcr,
    ),
  ];
}

const inside = (a: Rect, b: Rect) => {
  const x = (a[0] + a[2]) / 2;
  const y = (a[1] + a[3]) / 2;
  return x >= b[0] - 1 && x <= b[2] + 1 && y >= b[1] - 1 && y <= b[3] + 1;
};

/**
 * The font size that carries the most characters: the body text. Code
 * listings are left out when there is prose: a page of long listings set
 * smaller would otherwise make every paragraph look like a heading.
 */
export function bodySize(pages: RawPage[]): number {
  const weight = new Map<number, number>();
  const mono = (l: TextLine) => l.spans.every((s) => s.mono || s.text.trim() === "");
  const prose = pages.some((p) => p.lines.some((l) => !mono(l)));
  for (const p of pages) {
    for (const l of p.lines) {
      if (prose && mono(l)) continue;
      const chars = l.spans.reduce((n, s) => n + s.text.length, 0);
      weight.set(l.size, (weight.get(l.size) ?? 0) + chars);
    }
  }
  let best = 10;
  let most = 0;
  for (const [size, n] of weight) if (n > most) [best, most] = [size, n];
  return best;
}
