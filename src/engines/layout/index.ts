import { withPdf } from "../mupdf/core/document";
import { layoutDocument, type PageOcr, type PictureOcr, readPages, readPagesWithOcr } from "./document";
import { countHeadings, countWords, renderMarkdown } from "./markdown";

export interface MarkdownResult {
  markdown: string;
  pages: number;
  /** 0-based pages with images but no text layer (scans): OCR's work, read by it when `ocr` was given. */
  pagesWithoutText: number[];
  tables: number;
  wordCount: number;
  headings: number;
  /** Pictures on text pages that `pictures` read a table from (pictures.ts). */
  picturesRead: number;
}

/**
 * PDF bytes to Markdown by the layout engine; scanned pages are read by
 * `ocr` when given, else left out; with `pictures` too, so are the
 * pictures of text that text pages carry.
 */
export function markdownOfPdf(bytes: Uint8Array, ocr?: PageOcr, pictures?: PictureOcr): Promise<MarkdownResult> {
  return withPdf(bytes, async (doc, mupdf) => {
    const read = { pictures: 0 };
    const pages = ocr ? await readPagesWithOcr(doc, mupdf, ocr, pictures, read) : readPages(doc, mupdf);
    const models = layoutDocument(pages);
    const markdown = renderMarkdown(models);
    return {
      markdown,
      pages: models.length,
      pagesWithoutText: models.filter((m) => m.needsOcr).map((m) => m.index),
      tables: models.reduce((n, m) => n + m.blocks.filter((b) => b.kind === "table").length, 0),
      wordCount: countWords(markdown),
      headings: countHeadings(markdown),
      picturesRead: read.pictures,
    };
  });
}
