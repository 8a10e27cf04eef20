// The one builder of PDF fixtures. Pages and text are written by pdf-lib (a
// writer independent of the code under test); what pdf-lib cannot write (a
// rendered "scan", an encrypted file, a raster image) is made with the
// test-only MuPDF instance (mupdf.ts), never the app's. Plain JavaScript so
// `npm run soak` (Node) measures the same documents the heap tests do; the
// functions that need MuPDF load it only when called, inside workerd.
import { PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts, degrees, rgb } from "pdf-lib";

/** @typedef {import("./pdf.d.mts").FixtureOptions} FixtureOptions */
/** @typedef {import("./pdf.d.mts").PageSpec} PageSpec */

/** The test-only MuPDF (a TypeScript module that imports WASM: workerd only). */
const testMupdf = () => import("./mupdf.ts");

/** `pages` A4 pages reading "<label> page <n>" (18 pt Helvetica), with an optional form field, links, and Info title and author. */
export async function makePdf(/** @type {FixtureOptions} */ opts) {
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

/** Pages as specified (size, rotation, crop box, lines of 12 pt Helvetica from the top left). */
export async function fixturePdf(/** @type {PageSpec[]} */ pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const [w, h] = spec.size ?? [595, 842];
    const page = doc.addPage([w, h]);
    const size = spec.fontSize ?? 12;
    (spec.lines ?? []).forEach((line, i) => page.drawText(line, { x: 40, y: h - 60 - i * size * 1.6, size, font, color: rgb(0, 0, 0) }));
    if (spec.crop) page.setCropBox(...spec.crop);
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
  }
  return doc.save();
}

/** `pages` pages reading "<label> <n>". */
export const plainPdf = (/** @type {number} */ pages, label = "Page") =>
  fixturePdf(Array.from({ length: pages }, (_, i) => ({ lines: [`${label} ${i + 1}`] })));

/** A text PDF as users send them: 11 pt Helvetica, 56 lines a page, one line of PII a page (heap tests and `npm run soak`). */
export async function textPdf(/** @type {number} */ pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 56; line++) {
      const text =
        line === 3
          ? `Contact jane.doe${p}@example.com or +44 20 7946 0${String(p).padStart(3, "0")}`
          : `Page ${p}, line ${line + 1}: the quick brown fox jumps over the lazy dog.`;
      page.drawText(text, { x: 56, y: 790 - line * 13, size: 11, font });
    }
  }
  return doc.save();
}

/** Adds a top-level bookmark per (title, 0-based page). */
export async function withBookmarks(/** @type {Uint8Array} */ bytes, /** @type {{ title: string; page: number }[]} */ marks) {
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
    if (i > 0) item.set(PDFName.of("Prev"), refs[i - 1]);
    if (i < marks.length - 1) item.set(PDFName.of("Next"), refs[i + 1]);
    ctx.assign(refs[i], item);
  });
  ctx.assign(outlineRef, ctx.obj({ Type: "Outlines", First: refs[0], Last: refs[refs.length - 1], Count: marks.length }));
  doc.catalog.set(PDFName.of("Outlines"), outlineRef);
  return doc.save();
}

/** Two text pages with a form field, a sticky note, a link, Info metadata and an XMP packet. */
export async function annotatedPdf() {
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

/** makePdf's document written the classic way (xref table, no object streams), so bytes can be damaged by hand. */
export async function classicPdf(/** @type {number} */ pages, /** @type {string} */ label) {
  return (await PDFDocument.load(await makePdf({ pages, label }))).save({ useObjectStreams: false });
}

/** Bytes that claim to be a PDF but hold no readable document. */
export const corruptPdf = () => new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ngarbage garbage\n%%EOF\n");

/** Bytes <-> one char per byte (TextDecoder's "latin1" is windows-1252 and would alter 0x80-0x9F). */
export function bytesToLatin1(/** @type {Uint8Array} */ bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}

export const latin1ToBytes = (/** @type {string} */ text) => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);

/** `source` (default: one plain page) locked with AES-256, written by MuPDF. */
export async function encryptedPdf(/** @type {Uint8Array | undefined} */ source, { user = "secret", owner = "owner" } = {}) {
  const bytes = source ?? (await plainPdf(1));
  const { withMupdf } = await testMupdf();
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
    try {
      const buf = doc.saveToBuffer(`encrypt=aes-256,user-password=${user},owner-password=${owner}`);
      const out = buf.asUint8Array().slice();
      buf.destroy();
      return out;
    } finally {
      doc.destroy();
    }
  });
}

/** Deterministic noise so a fixture is the same on every run. */
function noise(/** @type {number} */ seed) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5;
}

/**
 * A "scanned" document: real text pages rendered at `dpi`, slightly grey and
 * noisy like paper under a scanner, stored as quality-95 baseline JPEGs that
 * fill each page. The shape Compress PDF exists for.
 */
export async function scannedPdf(/** @type {number} */ pages, dpi = 300) {
  const text = await makePdf({ pages, label: "Scanned report" });
  const { withMupdf } = await testMupdf();
  const out = await PDFDocument.create();
  const rnd = noise(7);
  for (let i = 0; i < pages; i++) {
    const jpeg = await withMupdf((mupdf) => {
      const doc = mupdf.Document.openDocument(text, "application/pdf");
      const page = doc.loadPage(i);
      const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true);
      try {
        const px = pix.getPixels();
        for (let p = 0; p < px.length; p += 3) {
          const n = rnd() * 14;
          for (let c = 0; c < 3; c++) px[p + c] = px[p + c] * 0.95 + n + (c === 2 ? -6 : 0);
        }
        return pix.asJPEG(95, false).slice();
      } finally {
        pix.destroy();
        page.destroy();
        doc.destroy();
      }
    });
    out.addPage([595, 842]).drawImage(await out.embedJpg(jpeg), { x: 0, y: 0, width: 595, height: 842 });
  }
  return out.save();
}

/** A solid-colour PNG or JPEG; `hole` makes the central third fully transparent (PNG only). */
export async function makeImage(
  /** @type {"png" | "jpeg"} */ format,
  /** @type {number} */ w,
  /** @type {number} */ h,
  /** @type {[number, number, number]} */ rgbColor,
  hole = false,
) {
  const { withMupdf } = await testMupdf();
  return withMupdf((mupdf) => {
    const alpha = format === "png";
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, w, h], alpha);
    try {
      const px = pix.getPixels();
      const n = alpha ? 4 : 3;
      const stride = pix.getStride();
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const o = y * stride + x * n;
          const inHole = hole && x > w / 3 && x < (2 * w) / 3 && y > h / 3 && y < (2 * h) / 3;
          // MuPDF pixmaps with alpha hold premultiplied colour.
          const a = inHole ? 0 : 255;
          px[o] = (rgbColor[0] * a) / 255;
          px[o + 1] = (rgbColor[1] * a) / 255;
          px[o + 2] = (rgbColor[2] * a) / 255;
          if (alpha) px[o + 3] = a;
        }
      }
      return (format === "png" ? pix.asPNG() : pix.asJPEG(92, false)).slice();
    } finally {
      pix.destroy();
    }
  });
}
