import type { PDFDocument } from "../core/document";

export interface OutlineNode {
  title: string;
  /** 0-based target page in the document being written. */
  page?: number;
  /** External link, used when there is no page. */
  uri?: string;
  children: OutlineNode[];
}

/**
 * Writes a bookmark tree with MuPDF's outline iterator. After insert() the
 * iterator sits after the new item, so prev() + down() enters its children
 * and up() + next() comes back out.
 */
export function writeOutline(doc: PDFDocument, nodes: OutlineNode[]): void {
  if (nodes.length === 0) return;
  const it = doc.outlineIterator();
  try {
    insertAll(doc, it, nodes);
  } finally {
    it.destroy();
  }
}

function insertAll(doc: PDFDocument, it: ReturnType<PDFDocument["outlineIterator"]>, nodes: OutlineNode[]): void {
  for (const node of nodes) {
    it.insert({ title: node.title, uri: linkFor(doc, node), open: false });
    if (node.children.length === 0) continue;
    it.prev();
    it.down();
    insertAll(doc, it, node.children);
    it.up();
    it.next();
  }
}

function linkFor(doc: PDFDocument, node: OutlineNode): string | undefined {
  if (node.page !== undefined) {
    return doc.formatLinkURI({ type: "Fit", chapter: 0, page: node.page, x: 0, y: 0, width: 0, height: 0, zoom: 0 });
  }
  return node.uri;
}

const INFO_KEYS = ["info:Title", "info:Author", "info:Subject", "info:Keywords", "info:Creator", "info:CreationDate"] as const;

/** Carries the first source's document information into the output. */
export function copyInfo(from: PDFDocument, to: PDFDocument): void {
  for (const key of INFO_KEYS) {
    const value = from.getMetaData(key);
    if (value) to.setMetaData(key, value);
  }
}
