import type { PictureWords } from "../layout/pictures";
import type { Rect } from "../layout/types";
import type { PDFDocument } from "../mupdf/core/document";
import type { Mupdf } from "../mupdf/core/loader";
import { OCR_DPI, OCR_MAX_PIXELS, OCR_RESERVE_BYTES } from "../ocr/page";
import { recognizeRemote } from "../ocr/remote";
import type { GrayImage } from "../quality/ssim";
import { reserveMemory } from "../../runtime/memory";

// A picture of text on a text page (a screenshot of a table), read by the
// same OCR Worker as scanned pages: the picture's region of the page is
// rendered grey at OCR_DPI and sent over the OCR binding, one at a time.

/** White pixels around the region: Tesseract finds the first and last rows and columns of text more surely with a margin. */
const PAD = 16;
/**
 * Text is dark ink on light paper: a picture with less than this share of
 * its pixels at either end of the grey scale is a photo (mid-tones), and is
 * not sent to OCR at all.
 */
const PAPER_AND_INK = 0.8;
const LIGHT = 200;
const DARK = 90;

/**
 * The words OCR reads in `region` of page `index`, in points of the page.
 * It reserves what a scanned page does (ocr/page.ts: MuPDF's decode of the
 * picture and the grey pixels here; Tesseract's heap is the OCR Worker's),
 * a photo (looksLikePaper) is not sent, and a reading that had to turn the
 * picture upright is not taken (its words are not where the picture is).
 * Best effort: a picture MuPDF cannot draw, or OCR that fails, reads as no
 * words, and the page keeps its own text.
 */
export async function ocrPicture(doc: PDFDocument, mupdf: Mupdf, index: number, region: Rect): Promise<PictureWords> {
  await reserveMemory(OCR_RESERVE_BYTES);
  let read: Awaited<ReturnType<typeof recognizeRemote>>;
  let drawn: ReturnType<typeof renderRegion>;
  try {
    drawn = renderRegion(doc, mupdf, index, region);
    if (!looksLikePaper(drawn.gray)) return { words: [] };
    read = await recognizeRemote(drawn.gray);
  } catch (err) {
    console.error("OCR of a picture on a text page failed; the page keeps its own text", err);
    return { words: [] };
  }
  if (read.rotation !== 0) return { words: [] };
  const { scale, origin } = drawn;
  const x = (px: number) => (origin[0] + px - PAD) / scale;
  const y = (px: number) => (origin[1] + px - PAD) / scale;
  return {
    words: read.words.map((w) => ({ text: w.text, line: w.line, confidence: w.confidence, box: [x(w.box[0]), y(w.box[1]), x(w.box[2]), y(w.box[3])] })),
  };
}

/** The region drawn grey at OCR_DPI (smaller when it would pass OCR_MAX_PIXELS), on a white margin of PAD pixels. */
function renderRegion(doc: PDFDocument, mupdf: Mupdf, index: number, region: Rect): { gray: GrayImage; scale: number; origin: [number, number] } {
  const [w, h] = [region[2] - region[0], region[3] - region[1]];
  const scale = (OCR_DPI / 72) * Math.min(1, Math.sqrt(OCR_MAX_PIXELS / Math.max(w * h * (OCR_DPI / 72) ** 2, 1)));
  const bbox: Rect = [Math.floor(region[0] * scale), Math.floor(region[1] * scale), Math.ceil(region[2] * scale), Math.ceil(region[3] * scale)];
  const [pw, ph] = [bbox[2] - bbox[0], bbox[3] - bbox[1]];
  const out = new Uint8Array((pw + 2 * PAD) * (ph + 2 * PAD)).fill(255);
  const page = doc.loadPage(index);
  try {
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, bbox, false);
    try {
      pix.clear(255);
      const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
      try {
        // The page's own space, as its text was read (extract.ts), scaled: only the region's pixels are drawn.
        page.run(device, [scale, 0, 0, scale, 0, 0]);
        device.close();
      } finally {
        device.destroy();
      }
      const [px, stride] = [pix.getPixels(), pix.getStride()];
      for (let row = 0; row < ph; row++) out.set(px.subarray(row * stride, row * stride + pw), (row + PAD) * (pw + 2 * PAD) + PAD);
    } finally {
      pix.destroy();
    }
  } finally {
    page.destroy();
  }
  // Pixel (PAD, PAD) is the region's first device pixel: words map back from there (ocrPicture).
  return { gray: { data: out, width: pw + 2 * PAD, height: ph + 2 * PAD }, scale, origin: [bbox[0], bbox[1]] };
}

/** A picture with less ink than this share of its pixels is blank: nothing to read. */
const MIN_INK = 0.002;

/** Whether most pixels are paper or ink, as on a page of text (a photo's are mostly in between), with some ink. */
function looksLikePaper(gray: GrayImage): boolean {
  let [light, dark] = [0, 0];
  for (const v of gray.data) {
    if (v >= LIGHT) light++;
    else if (v <= DARK) dark++;
  }
  return light + dark >= PAPER_AND_INK * gray.data.length && dark >= MIN_INK * gray.data.length;
}
