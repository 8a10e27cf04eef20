import { LIMITS } from "../../../config";
import { EngineError } from "../../errors";
import { saveCopy, withPdf, type PDFDocument } from "../core/document";
import { SAVE } from "../core/save-options";
import { cropPages, insertBlanks, rotatePages, type BlankSpec, type CropSpec } from "./organise-geometry";
import { readOutline, remapOutline } from "./organise-outline";
import { writeOutline } from "./outline";
import { INHERITABLE } from "./page-tree";
import { keepAcroForm, restoreAcroForm } from "./split";

type PDFObject = ReturnType<PDFDocument["newNull"]>;

/** What one Organise pages call does, resolved against the document (all indexes 0-based). */
export interface OrganisePlan {
  /** Source pages in output order; a page may repeat. */
  order: number[];
  /** Degrees (a multiple of 90) added to each page of `order`, by position. */
  rotate: number[];
  blanks: BlankSpec[];
  crop: CropSpec | null;
}

export interface OrganiseResult {
  data: Uint8Array;
  pages: number;
  sourcePages: number;
}

/**
 * Selects, reorders and repeats pages, then rotates, inserts blanks and
 * crops, in that order, in one document. `plan` is asked for the plan once
 * the page count is known (it throws the caller's own errors).
 *
 * rearrangePages keeps links, annotations and widgets of kept pages and
 * drops links into removed pages, but it drops /AcroForm (rebuilt from the
 * widgets left, as Split does), drops a bookmark's kept children along with
 * a removed bookmark (so the outline is rewritten here), and would list a
 * repeated page object twice in the page tree (so repeats are copies).
 */
export async function organisePdf(bytes: Uint8Array, plan: (pageCount: number) => OrganisePlan): Promise<OrganiseResult> {
  return withPdf(bytes, (doc) => {
    const sourcePages = doc.countPages();
    const p = plan(sourcePages);
    const total = p.order.length + p.blanks.length;
    if (total > LIMITS.pdfPages) throw new EngineError("too_large", `The output would have ${total} pages; at most ${LIMITS.pdfPages} are allowed.`);
    const outline = readOutline(doc);
    const acroForm = keepAcroForm(doc);
    const order = withCopies(doc, p.order);
    doc.getTrailer().get("Root").delete("Outlines");
    doc.rearrangePages(order);
    if (acroForm) restoreAcroForm(doc, acroForm);
    rotatePages(doc, p.rotate);
    const finalPositions = insertBlanks(doc, p.blanks, p.order.length);
    if (p.crop) cropPages(doc, p.crop);
    writeOutline(doc, remapOutline(doc, outline, firstOutputPage(p.order, finalPositions)));
    return { data: saveCopy(doc, SAVE.assembled), pages: doc.countPages(), sourcePages };
  });
}

/** Source page -> the output page (0-based, blanks counted) of its first occurrence. */
function firstOutputPage(order: number[], finalPositions: number[]): Map<number, number> {
  const first = new Map<number, number>();
  order.forEach((source, k) => {
    if (!first.has(source)) first.set(source, finalPositions[k]);
  });
  return first;
}

/**
 * The page list for rearrangePages with every repeat of a page replaced by
 * a copy appended to the document: one page object may sit in the page tree
 * once (its /Parent is one node), and two entries for one object confuse
 * every later edit of either.
 */
function withCopies(doc: PDFDocument, order: number[]): number[] {
  const seen = new Set<number>();
  return order.map((source) => {
    if (!seen.has(source)) {
      seen.add(source);
      return source;
    }
    doc.insertPage(-1, copyPage(doc, doc.findPage(source)));
    return doc.countPages() - 1;
  });
}

/** Keys a copy must not share: its place in the tree, article beads and the structure tree point at the original. */
const NOT_COPIED = new Set(["Parent", "Annots", "B", "StructParents"]);

/**
 * A page sharing the original's content and resources, with copies of its
 * annotations. Form widgets stay on the original only: a widget belongs to
 * one page, and a second one would be a second view of the field to keep in
 * step. Pop-ups, which belong to the original's notes, are left too.
 */
function copyPage(doc: PDFDocument, page: PDFObject): PDFObject {
  const dict = doc.newDictionary();
  page.forEach((value, key) => {
    if (!NOT_COPIED.has(String(key))) dict.put(key, value);
  });
  for (const key of INHERITABLE) {
    if (dict.get(key).isNull()) {
      const inherited = page.getInheritable(key);
      if (!inherited.isNull()) dict.put(key, inherited);
    }
  }
  const copy = doc.addObject(dict);
  const annots = page.get("Annots");
  if (annots.isArray()) copy.put("Annots", copiedAnnots(doc, annots, copy));
  return copy;
}

function copiedAnnots(doc: PDFDocument, annots: PDFObject, page: PDFObject): PDFObject {
  const out = doc.newArray();
  for (let i = 0; i < annots.length; i++) {
    const annot = annots.get(i);
    const subtype = annot.get("Subtype");
    const kind = subtype.isName() ? subtype.asName() : "";
    if (kind === "Widget" || kind === "Popup" || !annot.isDictionary()) continue;
    const dup = doc.newDictionary();
    annot.forEach((value, key) => {
      if (key !== "Popup" && key !== "P" && key !== "StructParent") dup.put(key, value);
    });
    dup.put("P", page);
    out.push(doc.addObject(dup));
  }
  return out;
}
