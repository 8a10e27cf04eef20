import { layoutHtmlPdf, type PagedPdf } from "../mupdf/html-pdf";
import { loadMupdf } from "../mupdf/loader";
import { pdfPageTexts } from "../mupdf/page-images";

/** Lays HTML out with MuPDF and reads the result's text back (for quality_score). */
export async function withMupdfHtml(html: string): Promise<PagedPdf & { text: string }> {
  const mupdf = await loadMupdf();
  const laid = layoutHtmlPdf(mupdf, html);
  mupdf.emptyStore();
  return { ...laid, text: (await pdfPageTexts(laid.pdf)).text };
}
