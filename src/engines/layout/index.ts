import { withPdf } from "../mupdf/document";
import { layoutDocument, readPages } from "./document";
import { countHeadings, countWords, renderMarkdown } from "./markdown";

export interface MarkdownResult {
  markdown: string;
  pages: number;
  /** 0-based pages with images but no text layer: OCR's work. */
  pagesWithoutText: number[];
  tables: number;
  wordCount: number;
  headings: number;
}

/** PDF bytes to Markdown by the layout engine (no OCR, no AI). */
export function markdownOfPdf(bytes: Uint8Array): Promise<MarkdownResult> {
  return withPdf(bytes, (doc, mupdf) => {
    const models = layoutDocument(readPages(doc, mupdf));
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
