import { saveCopy, withPdf } from "../mupdf/core/document";
import { type OutlineNode, writeOutline } from "../mupdf/pages/outline";
import { SAVE } from "../mupdf/core/save-options";

// outline (beyond the original API): Chromium writes bookmarks from the headings when
// asked, but only where it runs with its document-outline feature (miniflare
// launches it so; Browser Rendering's Chromium is not documented to). When
// the printed PDF has none, we build them with MuPDF: each heading's page is
// the first page, from the previous heading's on, whose text contains it
// (case ignored: CSS text-transform may change it).

export interface Heading {
  /** 1 for h1 ... 6 for h6. */
  level: number;
  text: string;
}

/** The PDF unchanged when it already has bookmarks (or there are no headings), else with bookmarks added. */
export async function ensureOutline(pdf: Uint8Array, headings: Heading[]): Promise<Uint8Array> {
  if (headings.length === 0) return pdf;
  return withPdf(pdf, (doc) => {
    if ((doc.loadOutline() ?? []).length > 0) return pdf;
    const pages = headingPages(doc, headings);
    writeOutline(doc, nest(headings, pages));
    return saveCopy(doc, SAVE.stamped);
  });
}

type Doc = Parameters<Parameters<typeof withPdf>[1]>[0];

function headingPages(doc: Doc, headings: Heading[]): number[] {
  const count = doc.countPages();
  let from = 0;
  return headings.map((h) => {
    for (let i = from; i < count; i++) {
      const page = doc.loadPage(i);
      try {
        if (page.search(h.text.slice(0, 200), "ignore-case").length > 0) return (from = i);
      } finally {
        page.destroy();
      }
    }
    return from;
  });
}

/** Headings in document order to a tree: a heading nests under the nearest earlier one of a lower level. */
export function nest(headings: Heading[], pages: number[]): OutlineNode[] {
  const roots: OutlineNode[] = [];
  const stack: { level: number; node: OutlineNode }[] = [];
  headings.forEach((h, i) => {
    const node: OutlineNode = { title: h.text, page: pages[i], children: [] };
    while (stack.length > 0 && stack[stack.length - 1].level >= h.level) stack.pop();
    (stack.length > 0 ? stack[stack.length - 1].node.children : roots).push(node);
    stack.push({ level: h.level, node });
  });
  return roots;
}
