import { PDFDocument, PDFName, PDFString } from "pdf-lib";

/** Every field type the tools handle, on two pages, as pdf-lib writes them. */
export async function formPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const p1 = doc.addPage([612, 792]);
  const p2 = doc.addPage([612, 792]);
  const form = doc.getForm();
  const name = form.createTextField("person.name");
  name.setMaxLength(10);
  name.enableRequired();
  name.addToPage(p1, { x: 50, y: 700, width: 200, height: 20 });
  const notes = form.createTextField("notes");
  notes.enableMultiline();
  notes.addToPage(p1, { x: 50, y: 600, width: 200, height: 60 });
  form.createCheckBox("agree").addToPage(p1, { x: 50, y: 560, width: 15, height: 15 });
  const size = form.createRadioGroup("size");
  ["S", "M", "L"].forEach((o, i) => size.addOptionToPage(o, p1, { x: 50 + i * 30, y: 520, width: 15, height: 15 }));
  const color = form.createDropdown("color");
  color.addOptions(["Red", "Green", "Blue"]);
  color.addToPage(p2, { x: 50, y: 700, width: 100, height: 20 });
  const fruits = form.createOptionList("fruits");
  fruits.addOptions(["Apple", "Banana", "Cherry"]);
  fruits.enableMultiselect();
  fruits.addToPage(p2, { x: 50, y: 600, width: 100, height: 60 });
  const id = form.createTextField("id");
  id.setText("A-1");
  id.enableReadOnly();
  id.addToPage(p2, { x: 50, y: 500, width: 100, height: 20 });
  return doc.save();
}

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
