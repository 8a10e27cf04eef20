import type { GrayImage } from "../../quality/ssim";
import type { Mupdf } from "../core/loader";
import type { PDFDocument } from "../core/document";

/** Renders one page (annotations and widgets included) to 8-bit gray at `dpi`, capped at `maxPixels`. */
export function renderGray(mupdf: Mupdf, doc: PDFDocument, index: number, dpi: number, maxPixels: number): GrayImage {
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const area = (Math.abs(x1 - x0) * Math.abs(y1 - y0) * dpi * dpi) / (72 * 72);
    // Huge pages (posters, fuzzed MediaBoxes) are rendered smaller, never bigger than the budget.
    const scale = (dpi / 72) * Math.min(1, Math.sqrt(maxPixels / Math.max(area, 1)));
    const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false, true);
    try {
      return { data: pix.getPixels().slice(), width: pix.getWidth(), height: pix.getHeight() };
    } finally {
      pix.destroy();
    }
  } finally {
    page.destroy();
  }
}
