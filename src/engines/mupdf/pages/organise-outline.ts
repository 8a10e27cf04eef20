import type { PDFDocument } from "../core/document";
import type { OutlineNode } from "./outline";
import { isInternal } from "./split";

type LinkDest = ReturnType<PDFDocument["resolveLinkDestination"]>;

/** A bookmark as read from the source: its destination resolved while the source's pages and names still exist. */
export interface SourceBookmark {
  title: string;
  dest?: LinkDest;
  uri?: string;
  children: SourceBookmark[];
}

export function readOutline(doc: PDFDocument): SourceBookmark[] {
  let items: ReturnType<PDFDocument["loadOutline"]>;
  try {
    items = doc.loadOutline() ?? [];
  } catch {
    return []; // a cyclic or broken outline is dropped; the pages are fine
  }
  const walk = (list: NonNullable<typeof items>, depth: number): SourceBookmark[] =>
    list.map((item) => ({
      title: item.title ?? "",
      dest: isInternal(item) ? destOf(doc, item.uri, item.page as number) : undefined,
      // As in Merge: MuPDF's outline writer would turn other schemes into a jump to page 1.
      uri: !isInternal(item) && item.uri && /^(https?|mailto):/i.test(item.uri) ? item.uri : undefined,
      children: depth < 32 ? walk(item.down ?? [], depth + 1) : [],
    }));
  return walk(items, 0);
}

/** The item's view, or the whole of its page when MuPDF cannot read one. */
function destOf(doc: PDFDocument, uri: string | undefined, page: number): LinkDest {
  const fit: LinkDest = { type: "Fit", chapter: 0, page, x: 0, y: 0, width: 0, height: 0, zoom: 0 };
  if (!uri) return fit;
  try {
    return { ...doc.resolveLinkDestination(uri), page };
  } catch {
    return fit;
  }
}

/**
 * The bookmarks for the output: each internal one moved to the first output
 * page showing its page, with its view (zoom, position) kept. One whose page
 * was removed goes, and its children take its place, so a kept chapter's
 * sections are not lost with a removed chapter page.
 */
export function remapOutline(doc: PDFDocument, marks: SourceBookmark[], outputPage: Map<number, number>): OutlineNode[] {
  return marks.flatMap((mark): OutlineNode[] => {
    const children = remapOutline(doc, mark.children, outputPage);
    if (mark.dest) {
      const page = outputPage.get(mark.dest.page);
      if (page === undefined) return children;
      return [{ title: mark.title, uri: doc.formatLinkURI({ ...mark.dest, chapter: 0, page }), children }];
    }
    return [{ title: mark.title, uri: mark.uri, children }];
  });
}
