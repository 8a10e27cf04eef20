import type { PDFObject } from "mupdf";
import type { PDFDocument } from "../core/document";

// Page-tree recovery for Repair PDF. MuPDF trusts /Count and follows /Kids;
// fuzzed and truncated files break both (cycles, huge counts, missing
// nodes). The tree is walked here with a visited set and a node budget, and
// when it is broken a flat tree is rebuilt from the leaves found, or from
// every /Type /Page object when the tree is gone altogether.

export interface PageScan {
  pages: PDFObject[];
  /** The tree had cycles, bad kids or wrong counts: it must be rebuilt. */
  broken: boolean;
}

const MAX_DEPTH = 64;

function nameOf(obj: PDFObject, key: string): string {
  const v = obj.get(key);
  return v.isName() ? v.asName() : "";
}

/** A leaf is a page if it says so, or (a damaged /Type) carries what pages carry. */
function looksLikePage(node: PDFObject): boolean {
  if (nameOf(node, "Type") === "Page") return true;
  return nameOf(node, "Type") === "" && ["MediaBox", "Contents", "Resources"].some((k) => !node.get(k).isNull());
}

/** Leaves of the page tree in order; `budget` bounds the nodes visited. */
export function walkPageTree(doc: PDFDocument, budget: number): PageScan {
  const pages: PDFObject[] = [];
  const visited = new Set<number>();
  let broken = false;
  let nodes = 0;
  const visit = (node: PDFObject, depth: number): void => {
    if (++nodes > budget || depth > MAX_DEPTH) return void (broken = true);
    if (node.isIndirect()) {
      if (visited.has(node.asIndirect())) return void (broken = true);
      visited.add(node.asIndirect());
    }
    if (!node.isDictionary()) return void (broken = true);
    const kids = node.get("Kids");
    if (kids.isArray() || nameOf(node, "Type") === "Pages") {
      if (!kids.isArray()) return void (broken = true);
    } else if (looksLikePage(node)) {
      return void pages.push(node);
    } else {
      return void (broken = true);
    }
    for (let i = 0; i < kids.length; i++) visit(kids.get(i), depth + 1);
    const count = node.get("Count");
    if (!count.isInteger()) broken = true;
  };
  const root = doc.getTrailer().get("Root");
  if (root.isDictionary()) visit(root.get("Pages"), 0);
  else broken = true;
  return { pages, broken };
}

/** Every object whose /Type is /Page, in object-number order (the tree is gone). */
export function scanPageObjects(doc: PDFDocument, budget: number): PDFObject[] {
  const pages: PDFObject[] = [];
  const count = Math.min(doc.countObjects(), budget);
  for (let num = 1; num < count; num++) {
    try {
      const ref = doc.newIndirect(num);
      const obj = ref.resolve();
      if (obj.isDictionary() && nameOf(obj, "Type") === "Page") pages.push(ref);
    } catch {
      // unreadable object: not a page we can use
    }
  }
  return pages;
}

/** Looks a key up the /Parent chain, bounded (a cyclic chain must not hang). */
function inherited(page: PDFObject, key: string): PDFObject | null {
  let node = page;
  for (let depth = 0; depth < MAX_DEPTH && node.isDictionary(); depth++) {
    const v = node.get(key);
    if (!v.isNull()) return v;
    node = node.get("Parent");
  }
  return null;
}

const LETTER = [0, 0, 612, 792];

/** Replaces the page tree with one flat /Pages node over `pages`, carrying inherited attributes down. */
export function rebuildPageTree(doc: PDFDocument, pages: PDFObject[]): void {
  const trailer = doc.getTrailer();
  let root = trailer.get("Root");
  if (!root.isDictionary()) {
    root = doc.addObject(doc.newDictionary());
    root.put("Type", doc.newName("Catalog"));
    trailer.put("Root", root);
  }
  const node = doc.addObject(doc.newDictionary());
  const kids = doc.newArray();
  for (const page of pages) {
    for (const key of ["Resources", "MediaBox", "CropBox", "Rotate"]) {
      if (!page.get(key).isNull()) continue;
      const value = inherited(page, key);
      if (value) page.put(key, value);
    }
    if (!page.get("MediaBox").isArray()) page.put("MediaBox", LETTER);
    if (page.get("Resources").isNull()) page.put("Resources", doc.newDictionary());
    page.put("Type", doc.newName("Page"));
    page.put("Parent", node);
    kids.push(page);
  }
  node.put("Type", doc.newName("Pages"));
  node.put("Kids", kids);
  node.put("Count", pages.length);
  root.put("Pages", node);
}
