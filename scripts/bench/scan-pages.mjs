// Scans made from born-digital pages, for the OCR sections (ocr.mjs,
// pdf-ocr.mjs): a page rendered to a 300-dpi gray PNG with its text layer
// kept as the truth, that PNG alone as a one-page PDF, and how many of the
// truth's words a reading found.
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

/** The share of the truth's words the reading has, each word counted as often as it occurs. */
export function accuracy(truth, read) {
  const bag = new Map();
  for (const w of read) bag.set(w, (bag.get(w) ?? 0) + 1);
  let hit = 0;
  for (const w of truth) {
    const n = bag.get(w) ?? 0;
    if (n > 0) {
      hit++;
      bag.set(w, n - 1);
    }
  }
  return truth.length ? hit / truth.length : 1;
}
