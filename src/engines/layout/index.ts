import { withPdf } from "../mupdf/core/document";
import { layoutDocument, type PageOcr, readPages, readPagesWithOcr } from "./document";
import { countHeadings, countWords, renderMarkdown } from "./markdown";

export interface MarkdownResult {
  markdown: string;
  pages: number;
  /** 0-based pages with images but no text layer (scans): OCR's work, read by it when `ocr` was given. */
  pagesWithoutText: number[];
  tables: number;
  wordCount: number;
  headings: number;
}

/** PDF bytes to Markdown by the layout engine; scanned pages are read by `ocr` when given, else left out. */
export function markdownOfPdf(bytes: Uint8Array, ocr?: PageOcr): Promise<MarkdownResult> {
  return withPdf(bytes, async (doc, mupdf) => {
    const models = layoutDocument(ocr ? await readPagesWithOcr(doc, mupdf, ocr) : readPages(doc, mupdf));
    const markdown = renderMarkdown(models);
    return {
      markdown,
      pages: models.length,
      pagesWithoutText: models.filter((m) => m.needsOcr).map((m) => m.index),
      tables: models.reduce((n, m) => n + m.blocks.filter((b) => b.kind === "table").length, 0),
      wordCount: countWords(markdown),
      headings: countHeadings(markdown),
    };
  });
}
