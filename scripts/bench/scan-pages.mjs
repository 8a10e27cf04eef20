// Scans made from born-digital pages, for the OCR sections (ocr.mjs,
// pdf-ocr.mjs): a page rendered to a 300-dpi gray PNG with its text layer
// kept as the truth, and that PNG alone as a one-page PDF.
import { PDFDocument } from "pdf-lib";

export const SCAN_DPI = 300;

/** Page `i` of a PDF as a 300-dpi gray PNG and its text layer. */
export function renderPage(mupdf, bytes, i) {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    const page = doc.loadPage(i);
    const pix = page.toPixmap(mupdf.Matrix.scale(SCAN_DPI / 72, SCAN_DPI / 72), mupdf.ColorSpace.DeviceGray, false, true);
    const out = { png: pix.asPNG().slice(), width: pix.getWidth(), height: pix.getHeight(), text: page.toStructuredText().asText() };
    pix.destroy();
    page.destroy();
    return out;
  } finally {
    doc.destroy();
  }
}

/** The PNG as the only content of a page of its own size: a scan without a text layer. */
export async function scanPdf(png, width, height) {
  const doc = await PDFDocument.create();
  const [w, h] = [(width * 72) / SCAN_DPI, (height * 72) / SCAN_DPI];
  doc.addPage([w, h]).drawImage(await doc.embedPng(png), { x: 0, y: 0, width: w, height: h });
  return doc.save();
}
