import { layoutDocument, readPages } from "../layout/document";
import { renderMarkdown } from "../layout/markdown";
import { withPdf } from "../mupdf/core/document";

/** The layout engine's Markdown page by page (the whole document laid out, so furniture and heading levels see every page). */
export function layoutMarkdownPages(bytes: Uint8Array): Promise<string[]> {
  return withPdf(bytes, (doc, mupdf) => layoutDocument(readPages(doc, mupdf)).map((page) => renderMarkdown([page]).trim()));
}
