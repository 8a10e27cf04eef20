import type { NamedFile } from "../zip";
import { openPdf, saveCopy, withPdf, type PDFDocument } from "./document";
import { loadMupdf } from "./loader";

export interface PdfOutlineSummary {
  pages: number;
  /** Top-level bookmarks that point into the document, with 0-based pages. */
  bookmarks: { title: string; page: number }[];
}

export interface PartSpec {
  name: string;
  /** 0-based page indexes, in output order. */
  pages: number[];
}

export async function inspectPdf(bytes: Uint8Array): Promise<PdfOutlineSummary> {
  return withPdf(bytes, (doc) => {
    let outline: ReturnType<PDFDocument["loadOutline"]> = null;
    try {
      outline = doc.loadOutline();
    } catch {
      outline = null; // a cyclic outline counts as no bookmarks
    }
    const bookmarks = (outline ?? [])
      .filter((o) => o.page !== undefined && o.page >= 0)
      .map((o) => ({ title: o.title ?? "", page: o.page as number }));
    return { pages: doc.countPages(), bookmarks };
  });
}

/**
 * Builds each part from a fresh copy of the source with rearrangePages, which
 * keeps annotations and widgets, remaps internal links and prunes the
 * outline. It drops /AcroForm, so the form is rebuilt from the widgets that
 * remain.
 */
export async function extractParts(bytes: Uint8Array, parts: PartSpec[]): Promise<NamedFile[]> {
  const mupdf = await loadMupdf();
  const files: NamedFile[] = [];
  try {
    for (const part of parts) {
      const doc = openPdf(mupdf, bytes);
      try {
        const acroForm = keepAcroForm(doc);
        doc.rearrangePages(part.pages);
        if (acroForm) restoreAcroForm(doc, acroForm);
        files.push({ name: part.name, data: saveCopy(doc, "garbage=compact,compress") });
      } finally {
        doc.destroy();
      }
    }
    return files;
  } finally {
    mupdf.emptyStore();
  }
}

type PDFObject = ReturnType<PDFDocument["newNull"]>;

function keepAcroForm(doc: PDFDocument): PDFObject | null {
  const acro = doc.getTrailer().get("Root").get("AcroForm");
  if (acro.isNull()) return null;
  return acro.isIndirect() ? acro : doc.addObject(acro);
}

function restoreAcroForm(doc: PDFDocument, acro: PDFObject): void {
  const fields = doc.newArray();
  const seen = new Set<number>();
  const count = doc.countPages();
  for (let p = 0; p < count; p++) {
    const annots = doc.findPage(p).get("Annots");
    if (!annots.isArray()) continue;
    for (let i = 0; i < annots.length; i++) {
      let field = annots.get(i);
      if (field.get("Subtype").isNull() || field.get("Subtype").asName() !== "Widget") continue;
      // Climb to the top-level field: Fields lists roots, not widgets of a parent.
      for (let depth = 0; depth < 32 && !field.get("Parent").isNull(); depth++) field = field.get("Parent");
      const num = field.isIndirect() ? field.asIndirect() : -1;
      if (num > 0 && seen.has(num)) continue;
      seen.add(num);
      fields.push(field);
    }
  }
  acro.put("Fields", fields);
  doc.getTrailer().get("Root").put("AcroForm", acro);
}
