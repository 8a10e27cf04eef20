// A text PDF as users send them (pdf-lib, 11 pt Helvetica, 56 lines a page,
// one line of PII a page), shared by the heap tests (test/engines/mupdf-heap)
// and `npm run soak`, which must measure the same documents.
import { PDFDocument, StandardFonts } from "pdf-lib";

/** @param {number} pages @returns {Promise<Uint8Array>} */
export async function textPdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 56; line++) {
      const text =
        line === 3
          ? `Contact jane.doe${p}@example.com or +44 20 7946 0${String(p).padStart(3, "0")}`
          : `Page ${p}, line ${line + 1}: the quick brown fox jumps over the lazy dog.`;
      page.drawText(text, { x: 56, y: 790 - line * 13, size: 11, font });
    }
  }
  return doc.save();
}
