import { ApiError } from "../../../errors";
import { EngineError } from "../../errors";
import { withPdf } from "../../mupdf/core/document";
import { SAVE } from "../../mupdf/core/save-options";
import { renderGray } from "../../mupdf/render/render";
import { reserveMemory } from "../../../runtime/memory";
import type { OcrLanguage } from "../languages";
import { OCR_DPI, OCR_MAX_PIXELS, OCR_RESERVE_BYTES } from "../page";
import { recognizeRemote } from "../remote";
import { placeWords } from "./place";
import { layerFont, writeTextLayer } from "./text-layer";

/**
 * Pages read by OCR in one call: each takes 1-7 s of CPU in the OCR Worker
 * per language (docs/tools/ocr.md), and a call must end within a Worker's
 * time limits. Longer scans are sent in parts (Split PDF).
 */
export const MAX_OCR_PAGES = 50;

export interface SearchableOptions {
  languages: readonly OcrLanguage[];
  /** OCR pages that already have text too (their text is kept; the layer goes over it). */
  force: boolean;
  /** The 0-based pages to consider, from the document's page count; all when absent. */
  select?: (count: number) => number[];
}

export interface SearchableResult {
  pdf: Uint8Array;
  pages: number;
  /** 1-based pages that got a text layer, and those left as they were because they had text. */
  ocred: number[];
  skipped: number[];
  words: number;
  /** Mean word confidence over the words written, 0..1 (null when none). */
  meanConfidence: number | null;
}

/**
 * Gives each scanned page of a PDF an invisible text layer from OCR. Pages
 * that already have text are skipped unless `force`. The file is saved
 * incrementally where MuPDF allows it, so every original byte, images and
 * content streams included, stays as it was and the layer is appended.
 */
export function searchablePdf(bytes: Uint8Array, opts: SearchableOptions): Promise<SearchableResult> {
  return withPdf(bytes, async (doc, mupdf) => {
    const count = doc.countPages();
    const selected = [...new Set(opts.select ? opts.select(count) : Array.from({ length: count }, (_, i) => i))].sort((a, b) => a - b);
    const todo: number[] = [];
    const skipped: number[] = [];
    for (const index of selected) (opts.force || !pageHasText(doc, index) ? todo : skipped).push(index);
    if (!todo.length)
      throw new ApiError("already_searchable", "Every selected page already has text; send force=true to read them by OCR anyway. Nothing was charged.");
    if (todo.length > MAX_OCR_PAGES) throw new EngineError("too_large", `${todo.length} pages need OCR; at most ${MAX_OCR_PAGES} are read per call.`);
    const font = layerFont(mupdf, doc);
    let words = 0;
    let confidence = 0;
    for (const index of todo) {
      await reserveMemory(OCR_RESERVE_BYTES);
      const gray = renderGray(mupdf, doc, index, OCR_DPI, OCR_MAX_PIXELS);
      const read = await recognizeRemote(gray, opts.languages);
      const page = doc.loadPage(index);
      try {
        const [x0, , x1] = page.getBounds();
        const placed = placeWords(read.words, read.rotation, gray, Math.abs(x1 - x0) / gray.width);
        const written = writeTextLayer(doc, page, placed, font);
        words += written.length;
        confidence += written.reduce((n, w) => n + w.confidence, 0);
      } finally {
        page.destroy();
      }
    }
    const out = doc.saveToBuffer(doc.canBeSavedIncrementally() ? SAVE.convertedUpdate : SAVE.stamped);
    return {
      pdf: out.asUint8Array().slice(),
      pages: count,
      ocred: todo.map((i) => i + 1),
      skipped: skipped.map((i) => i + 1),
      words,
      meanConfidence: words ? confidence / words : null,
    };
  });
}

/** Whether a page shows any text of its own (an earlier OCR layer counts: the page is searchable already). */
function pageHasText(doc: Parameters<Parameters<typeof withPdf>[1]>[0], index: number): boolean {
  const page = doc.loadPage(index);
  try {
    const text = page.toStructuredText("");
    try {
      return /\S/.test(text.asText());
    } finally {
      text.destroy();
    }
  } finally {
    page.destroy();
  }
}
