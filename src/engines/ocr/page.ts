import type { PDFDocument } from "../mupdf/core/document";
import type { Mupdf } from "../mupdf/core/loader";
import { renderGray } from "../mupdf/render/render";
import { reserveMemory } from "../../runtime/memory";
import { recognizeRemote } from "./remote";
import type { QuarterTurn } from "./rotate";
import { deskewWords, skewOf } from "./skew";

/**
 * Scans are read at 300 dpi, where Tesseract's English model reaches its
 * accuracy on 9-12 pt text (at 200 dpi it lost 15% of the words of an 11 pt
 * page, docs/tools/ocr.md); larger pages are rendered smaller so no page
 * takes more than OCR_MAX_PIXELS (A3 at 300 dpi is 17.4 MP).
 */
export const OCR_DPI = 300;
export const OCR_MAX_PIXELS = 18_000_000;

/**
 * What a call holds in this isolate while a scan is read: MuPDF's decode of
 * the scan to render it at 300 dpi (MuPDF grew from 22 to 53 MB on an A4
 * scan) and the grey page on the JavaScript side. Tesseract's own heap lives
 * in the OCR Worker's isolate (src/ocr-worker.ts). Measured figures:
 * docs/tools/ocr.md.
 */
export const OCR_RESERVE_BYTES = 48 * 1024 * 1024;

/** A recognised word on the page, in points of the upright page (top-left origin). */
export interface PageWord {
  text: string;
  box: [number, number, number, number];
  confidence: number;
  /** Text line the word belongs to (Tesseract's grouping). */
  line: number;
}

export interface OcrPage {
  /** The upright page's size in points (width and height swap for a quarter turn). */
  width: number;
  height: number;
  words: PageWord[];
  /** Clockwise turn that stood the scan upright. */
  rotation: QuarterTurn;
  /** Skew corrected, in degrees (positive: lines fell to the right). */
  skew: number;
}

/** Renders page `index` and has the OCR Worker read it (recognize.ts): upright, deskewed, in points. */
export async function ocrPage(doc: PDFDocument, mupdf: Mupdf, index: number): Promise<OcrPage> {
  // The tool's estimate covers its digital path; a scan raises it (and may wait for room).
  await reserveMemory(OCR_RESERVE_BYTES);
  const gray = renderGray(mupdf, doc, index, OCR_DPI, OCR_MAX_PIXELS);
  const page = doc.loadPage(index);
  let bounds: number[];
  try {
    bounds = page.getBounds();
  } finally {
    page.destroy();
  }
  const pointsPerPixel = Math.abs(bounds[2] - bounds[0]) / gray.width;
  const read = await recognizeRemote(gray);
  const angle = skewOf(read.words);
  const level = deskewWords(read.words, angle, read.width, read.height);
  const pt = (v: number) => v * pointsPerPixel;
  return {
    width: pt(read.width),
    height: pt(read.height),
    rotation: read.rotation,
    skew: (angle * 180) / Math.PI,
    words: level.map((w) => ({ text: w.text, confidence: w.confidence, line: w.line, box: [pt(w.box[0]), pt(w.box[1]), pt(w.box[2]), pt(w.box[3])] })),
  };
}
