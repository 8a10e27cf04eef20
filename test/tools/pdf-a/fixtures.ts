import { PDFDocument, PDFName, PDFString } from "pdf-lib";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { loadMupdf } from "../../../src/engines/mupdf/loader";
import { ssim, type GrayImage } from "../../../src/engines/quality/ssim";
import { makePdf } from "../../support/pdf";

// Fixtures and independent readers for the PDF toolkit A suites. Inputs are
// written with pdf-lib; outputs are read back with pdf-lib (structure) and
// MuPDF (rendering, text), never through the code under test's own helpers.

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Deterministic noise so a fixture is the same on every run. */
function noise(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5;
}

/**
 * A "scanned" document: real text pages rendered at 300 dpi, slightly grey
 * and noisy like paper under a scanner, stored as high-quality JPEGs that
 * fill each page. The shape Compress PDF exists for.
 */
export async function scannedPdf(pages: number, dpi = 300): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const source = mupdf.Document.openDocument(await makePdf({ pages, label: "Scanned report" }), "application/pdf");
  const out = await PDFDocument.create();
  const rnd = noise(7);
  for (let i = 0; i < pages; i++) {
    const page = source.loadPage(i);
    const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true);
    const [w, h, src] = [pix.getWidth(), pix.getHeight(), pix.getPixels()];
    const rgba = new Uint8ClampedArray(w * h * 4);
    for (let p = 0; p < w * h; p++) {
      const n = rnd() * 14;
      for (let c = 0; c < 3; c++) rgba[p * 4 + c] = src[p * 3 + c] * 0.95 + n + (c === 2 ? -6 : 0);
      rgba[p * 4 + 3] = 255;
    }
    pix.destroy();
    page.destroy();
    const jpg = await out.embedJpg(await encodeJpeg({ data: rgba, width: w, height: h }, 95, { progressive: false }));
    out.addPage([595, 842]).drawImage(jpg, { x: 0, y: 0, width: 595, height: 842 });
  }
  source.destroy();
  return out.save();
}

export interface Annotated {
  bytes: Uint8Array;
  fieldValue: string;
}

/** A text page with a form field, a sticky note, a link, Info metadata and an XMP packet. */
export async function annotatedPdf(): Promise<Annotated> {
  const base = await makePdf({ pages: 2, label: "Options", field: "customer", link: "https://example.com/kept" });
  const doc = await PDFDocument.load(base);
  const page = doc.getPage(0);
  const note = doc.context.obj({ Type: "Annot", Subtype: "Text", Rect: [300, 700, 320, 720], Contents: PDFString.of("Reviewer note"), C: [1, 1, 0] });
  page.node.addAnnot(doc.context.register(note));
  const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Options title</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  const stream = doc.context.stream(xmp, { Type: "Metadata", Subtype: "XML" });
  doc.catalog.set(PDFName.of("Metadata"), doc.context.register(stream));
  doc.setKeywords(["alpha", "beta"]);
  return { bytes: await doc.save(), fieldValue: "value of customer" };
}

/** Structure as pdf-lib sees it (an independent parser): pages, title, fields, annotation subtypes, XMP presence. */
export async function pdfLibFacts(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const subtypes: string[] = [];
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    for (let i = 0; i < (annots?.size() ?? 0); i++) {
      const dict = doc.context.lookup(annots!.get(i));
      const subtype = dict && "get" in dict ? (dict as unknown as { get(k: PDFName): unknown }).get(PDFName.of("Subtype")) : undefined;
      subtypes.push(String(subtype ?? "").replace(/^\//, ""));
    }
  }
  return {
    pages: doc.getPageCount(),
    title: doc.getTitle() ?? null,
    fields: doc.catalog.get(PDFName.of("AcroForm"))
      ? doc
          .getForm()
          .getFields()
          .map((f) => f.getName())
      : [],
    annotationSubtypes: subtypes.sort(),
    hasXmp: doc.catalog.get(PDFName.of("Metadata")) !== undefined,
  };
}

export async function renderGrayPage(bytes: Uint8Array, index: number, dpi: number): Promise<GrayImage> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    const page = doc.loadPage(index);
    const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false, true);
    const out = { data: pix.getPixels().slice(), width: pix.getWidth(), height: pix.getHeight() };
    pix.destroy();
    page.destroy();
    return out;
  } finally {
    doc.destroy();
  }
}

/** Mean SSIM over every page at `dpi` (150, as quality_score; the service samples pages, this does not). */
export async function fullSsim(before: Uint8Array, after: Uint8Array, pages: number, dpi = 150): Promise<number> {
  let sum = 0;
  for (let i = 0; i < pages; i++) sum += ssim(await renderGrayPage(before, i, dpi), await renderGrayPage(after, i, dpi));
  return sum / pages;
}

export async function isEncrypted(bytes: Uint8Array): Promise<boolean> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    return doc.needsPassword() || doc.getMetaData("encryption") !== "None";
  } finally {
    doc.destroy();
  }
}

/** Page texts and count, opening with `password` when the file needs one (for comparing against an unlocked copy). */
export async function textOf(bytes: Uint8Array, password?: string): Promise<{ pages: number; text: string[] }> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    if (doc.needsPassword() && password !== undefined) doc.authenticatePassword(password);
    const pages = doc.countPages();
    const text: string[] = [];
    for (let i = 0; i < pages; i++) {
      const page = doc.loadPage(i);
      const st = page.toStructuredText("");
      text.push(st.asText());
      st.destroy();
      page.destroy();
    }
    return { pages, text };
  } finally {
    doc.destroy();
  }
}

/** makePdf's document written the classic way (xref table, no object streams), so bytes can be damaged by hand. */
export async function classicPdf(pages: number, label: string): Promise<Uint8Array> {
  return (await PDFDocument.load(await makePdf({ pages, label }))).save({ useObjectStreams: false });
}

/** Bytes <-> one char per byte (TextDecoder's "latin1" is windows-1252 and would alter 0x80-0x9F). */
export function bytesToLatin1(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}

export function latin1ToBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
}
