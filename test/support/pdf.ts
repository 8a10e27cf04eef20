import { PDFDocument, PDFHexString, PDFString, StandardFonts, rgb } from "pdf-lib";
import { unzipSync } from "fflate";
import { loadMupdf } from "../../src/engines/mupdf/loader";

// Fixtures are generated in code with pdf-lib (an independent writer), and
// outputs are read back with MuPDF the way a user's viewer would.

export interface FixtureOptions {
  pages: number;
  label?: string;
  /** Add an AcroForm text field with this name on page 1. */
  field?: string;
  /** Add a URI link annotation on page 1. */
  link?: string;
  /** Add internal links on page 1 to these 0-based pages. */
  internalLinks?: number[];
}

export async function makePdf(opts: FixtureOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const label = opts.label ?? "Doc";
  for (let i = 1; i <= opts.pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${label} page ${i}`, { x: 72, y: 760, size: 18, font, color: rgb(0, 0, 0) });
  }
  if (opts.field) {
    const form = doc.getForm();
    const field = form.createTextField(opts.field);
    field.setText(`value of ${opts.field}`);
    field.addToPage(doc.getPage(0), { x: 72, y: 600, width: 200, height: 24 });
  }
  if (opts.link) {
    const page = doc.getPage(0);
    const annot = doc.context.obj({
      Type: "Annot",
      Subtype: "Link",
      Rect: [72, 500, 272, 520],
      Border: [0, 0, 0],
      A: { Type: "Action", S: "URI", URI: PDFString.of(opts.link) },
    });
    page.node.addAnnot(doc.context.register(annot));
  }
  for (const [i, target] of (opts.internalLinks ?? []).entries()) {
    const annot = doc.context.obj({
      Type: "Annot",
      Subtype: "Link",
      Rect: [72, 400 - i * 30, 272, 420 - i * 30],
      Border: [0, 0, 0],
      Dest: [doc.getPage(target).ref, "Fit"],
    });
    doc.getPage(0).node.addAnnot(doc.context.register(annot));
  }
  doc.setTitle(`${label} title`);
  doc.setAuthor("Fixture Author");
  return doc.save();
}

/** Adds a top-level bookmark per (title, 0-based page) with pdf-lib. */
export async function withBookmarks(bytes: Uint8Array, marks: { title: string; page: number }[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const ctx = doc.context;
  const outlineRef = ctx.nextRef();
  const refs = marks.map(() => ctx.nextRef());
  marks.forEach((m, i) => {
    const item = ctx.obj({
      Title: PDFHexString.fromText(m.title),
      Parent: outlineRef,
      Dest: [doc.getPage(m.page).ref, "Fit"],
    });
    if (i > 0) item.set(ctx.obj("Prev") as never, refs[i - 1]);
    if (i < marks.length - 1) item.set(ctx.obj("Next") as never, refs[i + 1]);
    ctx.assign(refs[i], item);
  });
  ctx.assign(outlineRef, ctx.obj({ Type: "Outlines", First: refs[0], Last: refs[refs.length - 1], Count: marks.length }));
  doc.catalog.set(ctx.obj("Outlines") as never, outlineRef);
  return doc.save();
}

export interface PdfFacts {
  pages: number;
  text: string[];
  outline: { title: string; page?: number; children: { title: string; page?: number; uri?: string }[] }[];
  fields: string[];
  linkUris: string[];
  title?: string;
}

/** Reads what a user would check: page count, page text, bookmarks, form fields, links. */
export async function readPdf(bytes: Uint8Array): Promise<PdfFacts> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
  try {
    const pages = doc.countPages();
    const text: string[] = [];
    const linkUris: string[] = [];
    for (let i = 0; i < pages; i++) {
      const page = doc.loadPage(i);
      const st = page.toStructuredText("preserve-whitespace");
      text.push(st.asText());
      st.destroy();
      for (const link of page.getLinks()) linkUris.push(link.getURI());
      page.destroy();
    }
    const outline = (doc.loadOutline() ?? []).map((o) => ({
      title: o.title ?? "",
      page: o.page,
      children: (o.down ?? []).map((d) => ({ title: d.title ?? "", page: d.page, ...(d.uri?.startsWith("#") ? {} : { uri: d.uri }) })),
    }));
    const fields: string[] = [];
    const acro = doc.getTrailer().get("Root").get("AcroForm");
    if (!acro.isNull()) {
      const list = acro.get("Fields");
      for (let i = 0; i < list.length; i++) fields.push(list.get(i).get("T").asString());
    }
    return { pages, text, outline, fields, linkUris, title: doc.getMetaData("info:Title") };
  } finally {
    doc.destroy();
  }
}

export function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}
