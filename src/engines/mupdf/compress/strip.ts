import { zlibSync } from "fflate";
import type { PDFObject } from "mupdf";
import type { PDFDocument } from "../core/document";

// What Compress PDF may drop or rewrite besides images, each step one
// function so the options map one-to-one onto the code.

function forEachObject(doc: PDFDocument, visit: (ref: PDFObject) => void): void {
  const count = doc.countObjects();
  for (let num = 1; num < count; num++) {
    const ref = doc.newIndirect(num);
    try {
      visit(ref);
    } catch {
      // a broken object is left for the writer to drop or keep as it is
    }
  }
}

function forEachPage(doc: PDFDocument, visit: (page: PDFObject) => void): void {
  const pages = doc.countPages();
  for (let i = 0; i < pages; i++) visit(doc.findPage(i));
}

/** preserve_metadata=false: the Info dictionary, every XMP stream and private application data go. */
export function dropMetadata(doc: PDFDocument): void {
  doc.getTrailer().delete("Info");
  forEachObject(doc, (ref) => {
    const dict = ref.resolve();
    if (!dict.isDictionary()) return;
    dict.delete("Metadata");
    dict.delete("PieceInfo");
  });
}

/**
 * preserve_annotations=false: comments, highlights, stamps, drawings and
 * attachments go. Form widgets stay (preserve_forms decides them) and so do
 * links, which are navigation rather than annotation content.
 */
export function dropAnnotations(doc: PDFDocument): void {
  forEachPage(doc, (page) => {
    const annots = page.get("Annots");
    if (!annots.isArray()) return;
    for (let i = annots.length - 1; i >= 0; i--) {
      const subtype = annots.get(i).get("Subtype");
      const kind = subtype.isName() ? subtype.asName() : "";
      if (kind !== "Widget" && kind !== "Link") annots.delete(i);
    }
    if (annots.length === 0) page.delete("Annots");
  });
}

/** preserve_forms=false: field appearances are baked into the page content and the form removed. */
export function flattenForms(doc: PDFDocument): void {
  const root = doc.getTrailer().get("Root");
  if (root.get("AcroForm").isNull()) return;
  doc.bake(false, true);
  root.delete("AcroForm");
}

/** Page thumbnails are redundant: every viewer renders its own. */
export function dropThumbnails(doc: PDFDocument): void {
  forEachPage(doc, (page) => page.delete("Thumb"));
}

/**
 * XMP packets are often stored uncompressed (InDesign writes hundreds of kB
 * of edit history). Flate is lossless, so they stay, smaller. PDF/A forbids
 * filters on metadata streams, so a file that claims PDF/A is left as is.
 */
export function deflateMetadataStreams(doc: PDFDocument, claimsPdfA: boolean): void {
  if (claimsPdfA) return;
  forEachObject(doc, (ref) => {
    if (!ref.isStream() || !ref.get("Filter").isNull()) return;
    const type = ref.get("Type");
    if (!type.isName() || type.asName() !== "Metadata") return;
    const raw = ref.readRawStream();
    const packed = zlibSync(raw.asUint8Array(), { level: 9 });
    const rawLength = raw.getLength();
    raw.destroy();
    if (packed.byteLength >= rawLength) return;
    ref.put("Filter", doc.newName("FlateDecode"));
    ref.writeRawStream(packed);
  });
}
