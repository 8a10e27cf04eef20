import type { Glyph } from "./geometry";
import { joinBaselines, splitSegments, toLine } from "./lines";
import type { RawPage, Rect, Style } from "./types";
import { CAP, DESCENT, X_HEIGHT } from "../text/letter-metrics";

/** What OCR reads off a scanned page (src/engines/ocr/page.ts), in points of the upright page. */
export interface OcrText {
  width: number;
  height: number;
  words: { text: string; box: Rect; line: number }[];
}

const REGULAR: Style = { bold: false, italic: false, mono: false };
/** Letters that reach below the baseline. */
const DESCENDER = /[gjpqy,;()[\]{}|@$]/;
/** Letters (and figures) that reach cap height; a word of none is only x-height tall. */
const TALL = /[A-Zbdfhklt0-9!?/\\[\](){}|@#$%&]/;
/** A digital character's box runs from about this far above the baseline to DESCENT_BOX below it (MuPDF's quads). */
const ASCENT_BOX = 1.0;
const DESCENT_BOX = 0.27;
/** Lines whose measured size is within this share of the page's body size are body text (OCR boxes are a few pixels off). */
const SAME_SIZE = 0.2;

type OcrWords = OcrText["words"];

/**
 * A scanned page as the layout engine's own lines: each recognised word
 * becomes characters spread over its box, words of a line are joined by
 * spaces, and the lines then go through the same segmenting as digital text,
 * so a wide gap still splits table cells and columns. OCR knows no fonts:
 * the size comes from the letters' height, which is what makes headings
 * stand out, and the boxes are widened to a font's height about the
 * baseline, as MuPDF reports digital characters, so paragraphs and rows
 * join as they do on text pages. Every run is regular.
 */
export function ocrRawPage(index: number, ocr: OcrText): RawPage {
  const byLine = new Map<number, OcrWords>();
  for (const w of ocr.words) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  const measured = [...byLine.values()].map((words) => ({ words: words.sort((a, b) => a.box[0] - b.box[0]), size: ocrFontSize(words) }));
  const body = bodyOf(measured);
  const glyphLines = measured.map(({ words, size: raw }) => {
    const size = Math.abs(raw - body) <= body * SAME_SIZE ? body : raw;
    const base = baselineOf(words, size);
    const [top, bottom] = [base - ASCENT_BOX * size, base + DESCENT_BOX * size];
    const glyphs: Glyph[] = [];
    for (const [i, w] of words.entries()) {
      if (i > 0)
        glyphs.push({ c: " ", box: [words[i - 1].box[2], top, Math.max(words[i - 1].box[2], w.box[0]), bottom], size, style: REGULAR, link: undefined });
      const chars = [...w.text];
      const step = (w.box[2] - w.box[0]) / chars.length;
      chars.forEach((c, k) => glyphs.push({ c, box: [w.box[0] + k * step, top, w.box[0] + (k + 1) * step, bottom], size, style: REGULAR, link: undefined }));
    }
    return glyphs;
  });
  const lines = joinBaselines(glyphLines.flatMap(splitSegments).map(toLine));
  return { index, width: ocr.width, height: ocr.height, lines, rules: [], images: [], needsOcr: true };
}

/** A recognised line's font size in points, from its words' heights (the median word's): OCR reads no font. */
export function ocrFontSize(words: OcrWords): number {
  const sizes = words.map((w) => (w.box[3] - w.box[1]) / ((TALL.test(w.text) ? CAP : X_HEIGHT) + (DESCENDER.test(w.text) ? DESCENT : 0))).sort((a, b) => a - b);
  // Rounded to half points so the lines of one paragraph share a size.
  return Math.round(sizes[Math.floor(sizes.length / 2)] * 2) / 2;
}

/** The baseline: the bottom of the line's words without descenders (the median), else above the descenders' bottom. */
export function baselineOf(words: OcrWords, size: number): number {
  const plain = words.filter((w) => !DESCENDER.test(w.text)).map((w) => w.box[3]);
  const bottoms = plain.length ? plain : words.map((w) => w.box[3] - DESCENT * size);
  return bottoms.sort((a, b) => a - b)[Math.floor(bottoms.length / 2)];
}

/** The size that carries the most characters on the page. */
function bodyOf(lines: { words: OcrWords; size: number }[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) weight.set(l.size, (weight.get(l.size) ?? 0) + l.words.reduce((n, w) => n + w.text.length, 0));
  let [best, most] = [0, -1];
  for (const [size, n] of weight) if (n > most) [best, most] = [size, n];
  return best;
}
