import { reserveMemory } from "../../../runtime/memory";
import { EngineError } from "../../errors";
import { type GrayImage, ssim } from "../../quality/ssim";
import { withPdf } from "../core/document";
import { BAND_PIXELS, bandedJpeg, bandedPng } from "./page-bands";
import type { Mupdf } from "../core/loader";

// PDF pages as pictures at 150 dpi (docs/tools/convert-document.md), encoded by MuPDF itself: the
// pixmap never leaves MuPDF's heap and no second codec heap (MozJPEG's is
// 16 MB and never shrinks) is brought up for what is a plain encode. One
// page is rendered and encoded at a time; what stays is the encoded files.

export const RENDER_DPI = 150;
/** Pixels of one rendered page: a 150 dpi A2 sheet is 8.7 MP; bigger pages are drawn smaller (24 MB of RGB here). */
export const MAX_PAGE_PIXELS = 8_000_000;
/** Pages one call renders: each page is a file in the ZIP (as split's 200-part cap; docs/tools/convert-document.md, Bounds). */
export const MAX_RENDERED_PAGES = 200;
/** Encoded bytes one call may hold before zipping (the ZIP doubles them for a moment). */
export const MAX_RENDERED_BYTES = 40 * 1024 * 1024;

export type PageImageFormat = "png" | "jpg";

export interface PageImages {
  /** One encoded image a page, in page order. */
  images: Uint8Array[];
  /** SSIM of the first page's JPEG against its rendering; 1 for PNG (lossless). */
  fidelity: number;
}

export async function renderPages(bytes: Uint8Array, format: PageImageFormat, jpegQuality: number): Promise<PageImages> {
  return withPdf(bytes, async (doc, mupdf) => {
    const pages = doc.countPages();
    if (pages > MAX_RENDERED_PAGES) {
      throw new EngineError("too_large", `The PDF has ${pages} pages; at most ${MAX_RENDERED_PAGES} are rendered to images per call. Split it first.`);
    }
    // The isolate's memory governor learns the real plan now: the largest
    // page's drawing and encoding in MuPDF (pageBytes), the parsed document,
    // and the encoded pages held for the ZIP (twice while it is written).
    let largest = 0;
    for (let i = 0; i < pages; i++) largest = Math.max(largest, pixelsOf(doc.loadPage(i)));
    const expected = Math.min(MAX_RENDERED_BYTES, pages * largest * (format === "png" ? 0.3 : 0.15));
    await reserveMemory(BASE_BYTES + 4 * bytes.byteLength + pageBytes(largest, format) + 2 * expected);
    const images: Uint8Array[] = [];
    let held = 0;
    let fidelity = 1;
    for (let i = 0; i < pages; i++) {
      try {
        const page = await encodePage(mupdf, doc.loadPage(i), format, jpegQuality, i === 0);
        if (i === 0) fidelity = page.fidelity;
        held += page.encoded.byteLength;
        if (held > MAX_RENDERED_BYTES) {
          throw new EngineError("too_large", `The page images pass ${MAX_RENDERED_BYTES / 1024 / 1024} MB after page ${i + 1}; convert fewer pages per call.`);
        }
        images.push(page.encoded);
      } finally {
        mupdf.emptyStore();
      }
    }
    return { images, fidelity };
  });
}

/**
 * Pages up to this many pixels are drawn whole and encoded by MuPDF (A4 and
 * Letter at 150 dpi are 2.2 MP); bigger pages are drawn and encoded in bands
 * (page-bands.ts): MuPDF's writers hold three to four copies of a pixmap.
 */
export const WHOLE_PAGE_PIXELS = 2_500_000;

/**
 * What one page's drawing and encoding needs, with the ~20% steps a
 * WebAssembly heap grows in (page-render.test.ts measures it): whole pages
 * in MuPDF's heap, banded ones a band there and the band writers' share.
 */
export function pageBytes(pixels: number, format: PageImageFormat): number {
  const slack = 1.25;
  // MuPDF's whole-page writers: PNG three RGB copies, JPEG the pixmap and a coefficient buffer, and the fidelity measure's decode.
  if (pixels <= WHOLE_PAGE_PIXELS) return slack * (format === "png" ? 9 : 12) * pixels;
  const band = slack * 3 * BAND_PIXELS + 4 * BAND_PIXELS;
  // Banded JPEG: MozJPEG's encoder and decoder heaps (16 MiB each when not yet up) and two grey copies for the fidelity measure.
  return format === "png" ? band : band + 34 * 1024 * 1024 + 2 * pixels;
}

async function encodePage(
  mupdf: Mupdf,
  page: Page,
  format: PageImageFormat,
  jpegQuality: number,
  measure: boolean,
): Promise<{ encoded: Uint8Array; fidelity: number }> {
  try {
    const raster = pageRaster(page);
    if (raster.pw * raster.ph > WHOLE_PAGE_PIXELS) {
      return format === "png" ? { encoded: await bandedPng(mupdf, page, raster), fidelity: 1 } : bandedJpeg(mupdf, page, raster, jpegQuality, measure);
    }
    const pix = renderPage(mupdf, page, raster);
    let dropped = false;
    try {
      // MuPDF hands back a copy: its buffer is already freed.
      if (format === "png") return { encoded: pix.asPNG(), fidelity: 1 };
      const encoded = pix.asJPEG(jpegQuality, false);
      if (!measure) return { encoded, fidelity: 1 };
      const original = gray(mupdf, pix);
      // The original goes before the JPEG is decoded again: two full pixmaps never meet in MuPDF's heap.
      pix.destroy();
      dropped = true;
      return { encoded, fidelity: jpegFidelity(mupdf, original, encoded) };
    } finally {
      if (!dropped) pix.destroy();
    }
  } finally {
    page.destroy();
  }
}

type Page = ReturnType<InstanceType<Mupdf["PDFDocument"]>["loadPage"]>;
type Pixmap = InstanceType<Mupdf["Pixmap"]>;

const BASE_BYTES = 8 * 1024 * 1024;

/** A page's size at 150 dpi in whole pixels (as pdftoppm counts them: A4 is 1240 x 1754), within MAX_PAGE_PIXELS, and the scale used. */
function pageRaster(page: Page): { width: number; height: number; pw: number; ph: number; scale: number } {
  const [x0, y0, x1, y1] = page.getBounds();
  const [width, height] = [Math.max(1e-3, Math.abs(x1 - x0)), Math.max(1e-3, Math.abs(y1 - y0))];
  const area = (width * height * RENDER_DPI ** 2) / 72 ** 2;
  const scale = (RENDER_DPI / 72) * Math.min(1, Math.sqrt(MAX_PAGE_PIXELS / Math.max(area, 1)));
  let [pw, ph] = [Math.max(1, Math.floor(width * scale + 0.5)), Math.max(1, Math.floor(height * scale + 0.5))];
  if (pw * ph > MAX_PAGE_PIXELS) [pw, ph] = [Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale))];
  return { width, height, pw, ph, scale };
}

function pixelsOf(page: Page): number {
  try {
    const { pw, ph } = pageRaster(page);
    return pw * ph;
  } finally {
    page.destroy();
  }
}

function renderPage(mupdf: Mupdf, page: Page, { width, height, pw, ph, scale }: ReturnType<typeof pageRaster>): Pixmap {
  const pix = page.toPixmap(mupdf.Matrix.scale(pw / width, ph / height), mupdf.ColorSpace.DeviceRGB, false, true);
  const dpi = Math.round(scale * 72);
  pix.setResolution(dpi, dpi);
  return pix;
}

/** SSIM (grey) of a JPEG against the grey of the pixmap it was encoded from. */
function jpegFidelity(mupdf: Mupdf, a: GrayImage, jpeg: Uint8Array): number {
  const decoded = new mupdf.Image(jpeg).toPixmap();
  try {
    const b = gray(mupdf, decoded);
    if (a.width !== b.width || a.height !== b.height) return 0;
    return Math.round(ssim(a, b) * 10_000) / 10_000;
  } finally {
    decoded.destroy();
  }
}

function gray(mupdf: Mupdf, pix: Pixmap): GrayImage {
  const g = pix.convertToColorSpace(mupdf.ColorSpace.DeviceGray, false);
  try {
    return { data: g.getPixels().slice(), width: g.getWidth(), height: g.getHeight() };
  } finally {
    g.destroy();
  }
}

/** Plain text of every page (MuPDF's reading order), pages separated by form feeds as pdftotext does, and how many pages had any. */
export async function pdfPageTexts(bytes: Uint8Array): Promise<{ text: string; pages: number; pagesWithText: number }> {
  return withPdf(bytes, (doc) => {
    const pages = doc.countPages();
    const texts: string[] = [];
    for (let i = 0; i < pages; i++) {
      const page = doc.loadPage(i);
      const st = page.toStructuredText("preserve-whitespace");
      texts.push(st.asText());
      st.destroy();
      page.destroy();
    }
    return { text: texts.join("\f"), pages, pagesWithText: texts.filter((t) => t.trim() !== "").length };
  });
}
