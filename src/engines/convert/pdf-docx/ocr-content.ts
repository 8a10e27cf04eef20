import { ocrFontSize } from "../../layout/ocr-lines";
import type { OcrPage } from "../../ocr/page";
import type { Glyph, GlyphStyle, PageContent, TextLine } from "./model";

/** Share of the font size below the baseline (Arial, Helvetica, Times are close). */
const DESCENT = 0.21;
const DESCENDER = /[gjpqy,;()[\]{}|@$]/;

/**
 * A scanned page read by OCR as PDF to DOCX's page content: one text line per
 * recognised line, characters spread over each word's box, in a plain font
 * (OCR reads no typeface) sized from the line's height. The scan's picture
 * is left out: the DOCX is for editing, and the text is what it showed.
 */
export function ocrContent(ocr: OcrPage): PageContent {
  const byLine = new Map<number, OcrPage["words"]>();
  for (const w of ocr.words) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  const lines: TextLine[] = [];
  for (const words of byLine.values()) {
    words.sort((a, b) => a.box[0] - b.box[0]);
    const style: GlyphStyle = { font: "Arial", size: ocrFontSize(words), bold: false, italic: false, underline: false, color: "000000" };
    const plain = words.filter((w) => !DESCENDER.test(w.text));
    const baseline = plain.length ? median(plain.map((w) => w.box[3])) : median(words.map((w) => w.box[3])) - DESCENT * style.size;
    const glyphs: Glyph[] = [];
    for (const [i, w] of words.entries()) {
      if (i > 0) glyphs.push({ ...style, c: " ", x0: words[i - 1].box[2], x1: Math.max(words[i - 1].box[2], w.box[0]), y0: w.box[1], y1: w.box[3], baseline });
      const chars = [...w.text];
      const step = (w.box[2] - w.box[0]) / chars.length;
      chars.forEach((c, k) => glyphs.push({ ...style, c, x0: w.box[0] + k * step, x1: w.box[0] + (k + 1) * step, y0: w.box[1], y1: w.box[3], baseline }));
    }
    lines.push({ glyphs });
  }
  lines.sort((a, b) => a.glyphs[0].baseline - b.glyphs[0].baseline || a.glyphs[0].x0 - b.glyphs[0].x0);
  return { width: ocr.width, height: ocr.height, blocks: lines.length ? [{ kind: "text", lines }] : [], rules: [] };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
