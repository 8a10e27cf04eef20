import { reserveMemory } from "../../runtime/memory";
import { withPdf } from "../mupdf/core/document";
import type { Mupdf } from "../mupdf/core/loader";
import { AI_BUDGETS } from "./budgets";
import type { ChatImage } from "./types";

// Page images for a vision model: JPEG at AI_BUDGETS.visionDpi, each page
// within visionMaxPixels (bigger pages are drawn smaller), encoded by MuPDF
// one page at a time so only the encoded files stay.

export interface PageImages {
  images: ChatImage[];
  /** Pages in the document (the images cover the first images.length). */
  pages: number;
  /** Page sizes in points, for every page. */
  sizes: [number, number][];
}

const BASE_BYTES = 8 * 1024 * 1024;

/** Renders the first `count` pages (fewer if the document is shorter); a locked PDF throws EngineError "encrypted". */
export function renderForVision(bytes: Uint8Array, count: number): Promise<PageImages> {
  return withPdf(bytes, async (doc, mupdf) => {
    const pages = doc.countPages();
    const take = Math.min(count, pages);
    // The pixmap (RGB) and its JPEG in MuPDF's heap, plus the encoded pages held.
    await reserveMemory(BASE_BYTES + 4 * bytes.byteLength + 4 * AI_BUDGETS.visionMaxPixels + take * 512 * 1024);
    const sizes: [number, number][] = [];
    for (let i = 0; i < pages; i++) sizes.push(pageSize(doc.loadPage(i)));
    const images: ChatImage[] = [];
    for (let i = 0; i < take; i++) images.push({ mime: "image/jpeg", data: renderJpeg(mupdf, doc.loadPage(i)) });
    return { images, pages, sizes };
  });
}

type Page = ReturnType<InstanceType<Mupdf["PDFDocument"]>["loadPage"]>;

function pageSize(page: Page): [number, number] {
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    return [Math.max(1, Math.abs(x1 - x0)), Math.max(1, Math.abs(y1 - y0))];
  } finally {
    page.destroy();
  }
}

function renderJpeg(mupdf: Mupdf, page: Page): Uint8Array {
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const area = (Math.abs(x1 - x0) * Math.abs(y1 - y0) * AI_BUDGETS.visionDpi ** 2) / 72 ** 2;
    const scale = (AI_BUDGETS.visionDpi / 72) * Math.min(1, Math.sqrt(AI_BUDGETS.visionMaxPixels / Math.max(area, 1)));
    const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
    try {
      return pix.asJPEG(AI_BUDGETS.visionJpegQuality, false);
    } finally {
      pix.destroy();
      mupdf.emptyStore();
    }
  } finally {
    page.destroy();
  }
}
