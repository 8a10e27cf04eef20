import { PDFDocument, PDFName, PDFString } from "pdf-lib";

export { formPdf } from "../../support/pdf.mjs";

/** A page with an /XFA form and an AcroForm that lists no fields, as XFA-only producers (LiveCycle) write it. */
export async function xfaOnlyPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const xfa = doc.context.register(doc.context.flateStream('<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template/></xdp:xdp>'));
  const acro = doc.context.obj({ Fields: [], XFA: xfa });
  doc.catalog.set(PDFName.of("AcroForm"), acro);
  return doc.save();
}

/** A plain page with a text note: an annotation that is not a form field. */
export async function withNote(bytes: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const page = doc.getPage(0);
  const note = doc.context.obj({
    Type: "Annot",
    Subtype: "Square",
    Rect: [300, 300, 400, 400],
    C: [1, 0, 0],
    Contents: PDFString.of("note"),
  });
  page.node.addAnnot(doc.context.register(note));
  return doc.save();
}
