// The one builder of PDF fixtures. Pages and text are written by pdf-lib (a
// writer independent of the code under test); what pdf-lib cannot write (a
// rendered "scan", an encrypted file, a raster image) is made with the
// test-only MuPDF instance (mupdf.ts), never the app's. Plain JavaScript so
// `npm run soak` (Node) measures the same documents the heap tests do; the
// functions that need MuPDF load it only when called, inside workerd.
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFString,
  StandardFonts,
  TextRenderingMode,
  beginText,
  degrees,
  endText,
  moveText,
  rgb,
  setFontAndSize,
  setTextRenderingMode,
  showText,
} from "pdf-lib";

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
/** Every field type the tools handle, on two pages, as pdf-lib writes them. */
export async function formPdf() {
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

/**
 * A "Word-like" PDF for PDF to DOCX: a bold title, a justified paragraph
 * with italic, red and underlined words, a ruled 3 x 3 table, a picture,
 * a centred caption and a line indented half an inch, then a landscape
 * Letter page with one paragraph. Returns the cell texts
 * and the picture's size in points too.
 */
export async function richPdf() {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const italic = await doc.embedFont(StandardFonts.HelveticaOblique);
  const times = await doc.embedFont(StandardFonts.TimesRoman);
  const page = doc.addPage([595.28, 841.89]);
  page.drawText("Quarterly Report", { x: 72, y: 770, size: 20, font: bold });
  let x = 72;
  const words = [
    ["The ", regular],
    ["results", italic],
    [" were ", regular],
    ["excellent", bold],
    [" and ", regular],
    ["warning", regular, rgb(0.8, 0, 0)],
    [" signs were ", regular],
    ["underlined", regular],
  ];
  for (const [text, font, color] of words) {
    page.drawText(text, { x, y: 730, size: 11, font, color: color ?? rgb(0, 0, 0) });
    const w = font.widthOfTextAtSize(text, 11);
    if (text === "underlined") page.drawLine({ start: { x, y: 728 }, end: { x: x + w, y: 728 }, thickness: 0.7 });
    x += w;
  }
  page.drawText("Serif text in Times Roman follows the table.", { x: 72, y: 712, size: 12, font: times });
  const cells = [
    ["Region", "Sales", "Growth"],
    ["North", "1200", "4%"],
    ["South", "950", "7%"],
  ];
  const [tx, ty, cw, rh] = [72, 680, 120, 24];
  for (let r = 0; r <= 3; r++) page.drawLine({ start: { x: tx, y: ty - r * rh }, end: { x: tx + 3 * cw, y: ty - r * rh }, thickness: 1 });
  for (let c = 0; c <= 3; c++) page.drawLine({ start: { x: tx + c * cw, y: ty }, end: { x: tx + c * cw, y: ty - 3 * rh }, thickness: 1 });
  cells.forEach((row, r) => row.forEach((t, c) => page.drawText(t, { x: tx + c * cw + 6, y: ty - r * rh - 16, size: 11, font: r === 0 ? bold : regular })));
  const png = await doc.embedPng(await makeImage("png", 80, 40, [20, 90, 200]));
  page.drawImage(png, { x: 72, y: 500, width: 160, height: 80 });
  page.drawText("Text after the picture.", { x: 72, y: 470, size: 11, font: regular });
  const centred = "A centred caption";
  page.drawText(centred, { x: (595.28 - regular.widthOfTextAtSize(centred, 11)) / 2, y: 440, size: 11, font: regular });
  page.drawText("An indented note, half an inch in.", { x: 108, y: 410, size: 11, font: regular });
  const wide = doc.addPage([792, 612]);
  wide.drawText("A landscape page with a closing paragraph.", { x: 72, y: 520, size: 14, font: regular });
  return { bytes: await doc.save(), cells, picture: [160, 80] };
}

const LAYOUT_FONTS = {
  regular: StandardFonts.Helvetica,
  bold: StandardFonts.HelveticaBold,
  italic: StandardFonts.HelveticaOblique,
  mono: StandardFonts.Courier,
  serif: StandardFonts.TimesRoman,
};

/**
 * Pages of positioned text runs and ruling lines, for the layout engine:
 * `{ text, x, y, size?, font?, invisible?, link?, rotate? }` (y from the top
 * of an A4 page; `invisible` paints in render mode 3, as OCR layers do;
 * `rotate` in degrees, counter-clockwise, -90 runs the text down the page) and
 * `{ rule: [x0, y0, x1, y1] }` (a 0.75 pt line, y from the top) and
 * `{ image: [x, y, width, height] }` (a blue PNG, y of its top edge).
 */
export async function layoutPdf(/** @type {import("./pdf.d.mts").LayoutItem[][]} */ pages) {
  const doc = await PDFDocument.create();
  /** @type {Record<string, import("pdf-lib").PDFFont>} */
  const fonts = {};
  for (const [k, name] of Object.entries(LAYOUT_FONTS)) fonts[k] = await doc.embedFont(name);
  for (const items of pages) {
    const page = doc.addPage([595, 842]);
    for (const item of items) {
      if ("image" in item) {
        const [x, top, width, height] = item.image;
        const png = await doc.embedPng(await makeImage("png", 60, 40, [30, 120, 200]));
        page.drawImage(png, { x, y: 842 - top - height, width, height });
        continue;
      }
      if ("rule" in item) {
        const [x0, y0, x1, y1] = item.rule;
        page.drawLine({ start: { x: x0, y: 842 - y0 }, end: { x: x1, y: 842 - y1 }, thickness: 0.75, color: rgb(0, 0, 0) });
        continue;
      }
      const font = fonts[item.font ?? "regular"];
      const size = item.size ?? 11;
      const y = 842 - item.y;
      if (item.invisible) {
        const key = page.node.newFontDictionary(font.name, font.ref);
        page.pushOperators(
          beginText(),
          setFontAndSize(key, size),
          setTextRenderingMode(TextRenderingMode.Invisible),
          moveText(item.x, y),
          showText(font.encodeText(item.text)),
          endText(),
        );
      } else {
        page.drawText(item.text, { x: item.x, y, size, font, color: rgb(0, 0, 0), rotate: degrees(item.rotate ?? 0) });
      }
      if (item.link) {
        const width = font.widthOfTextAtSize(item.text, size);
        const annot = doc.context.obj({
          Type: "Annot",
          Subtype: "Link",
          Rect: [item.x, y - 2, item.x + width, y + size],
          Border: [0, 0, 0],
          A: { Type: "Action", S: "URI", URI: PDFString.of(item.link) },
        });
        page.node.addAnnot(doc.context.register(annot));
      }
    }
  }
  return doc.save();
}

/**
 * A small Word document for the DOCX pairs, written with the `docx`
 * package: a heading, a paragraph with bold and italic words, a bulleted
 * list, a 2 x 2 table, on a landscape Letter page with 1-inch margins.
 * Returns the lines a reader should find.
 */
export async function simpleDocx() {
  const d = await import("docx");
  const lines = ["Project Plan", "The plan has bold steps and italic notes.", "Gather requirements", "Ship the release", "Phase", "Weeks", "Design", "3"];
  const cell = (t) => new d.TableCell({ children: [new d.Paragraph(t)] });
  const doc = new d.Document({
    numbering: { config: [{ reference: "bullets", levels: [{ level: 0, format: d.LevelFormat.BULLET, text: "•", alignment: d.AlignmentType.LEFT }] }] },
    sections: [
      {
        properties: {
          page: {
            size: { width: 12240, height: 15840, orientation: d.PageOrientation.LANDSCAPE },
            margin: { top: 1440, right: 1440, bottom: 1440, left: 1440 },
          },
        },
        children: [
          new d.Paragraph({ text: lines[0], heading: d.HeadingLevel.HEADING_1 }),
          new d.Paragraph({
            children: [
              new d.TextRun("The plan has "),
              new d.TextRun({ text: "bold steps", bold: true }),
              new d.TextRun(" and "),
              new d.TextRun({ text: "italic notes", italics: true }),
              new d.TextRun("."),
            ],
          }),
          new d.Paragraph({ text: lines[2], numbering: { reference: "bullets", level: 0 } }),
          new d.Paragraph({ text: lines[3], numbering: { reference: "bullets", level: 0 } }),
          new d.Table({ rows: [new d.TableRow({ children: [cell("Phase"), cell("Weeks")] }), new d.TableRow({ children: [cell("Design"), cell("3")] })] }),
        ],
      },
    ],
  });
  return { bytes: new Uint8Array(await d.Packer.toArrayBuffer(doc)), lines };
}

/** A DOCX of plain paragraphs, one per string (written by the docx package). */
export async function docxOf(/** @type {string[]} */ paragraphs) {
  const d = await import("docx");
  const doc = new d.Document({ sections: [{ children: paragraphs.map((t) => new d.Paragraph(t)) }] });
  return new Uint8Array(await d.Packer.toArrayBuffer(doc));
}

/** The pages of several PDFs, in order, as one PDF (a scan bound into a text document). */
export async function concatPdfs(/** @type {Uint8Array[]} */ ...parts) {
  const out = await PDFDocument.create();
  for (const bytes of parts) {
    const src = await PDFDocument.load(bytes);
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  return out.save();
}

/**
 * Every page of `source` as a scan: rendered gray with the test MuPDF at
 * `dpi`, turned clockwise by `turn` degrees plus a `skew` (degrees), and
 * placed as a JPEG on a page the image's size. `junk` lines are laid over
 * each page as invisible text (render mode 3), as a failed OCR layer would be.
 */
export async function scanOf(/** @type {Uint8Array} */ source, /** @type {{ dpi?: number; turn?: number; skew?: number; junk?: string[] }} */ opts = {}) {
  const { dpi = 200, turn = 0, skew = 0, junk = [] } = opts;
  const { withMupdf } = await testMupdf();
  const scans = await withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(source, "application/pdf");
    const out = [];
    try {
      for (let i = 0; i < doc.countPages(); i++) {
        const page = doc.loadPage(i);
        const matrix = mupdf.Matrix.concat(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.Matrix.rotate(turn + skew));
        const pix = page.toPixmap(matrix, mupdf.ColorSpace.DeviceGray, false, true);
        try {
          out.push({ jpeg: pix.asJPEG(90, false).slice(), width: pix.getWidth(), height: pix.getHeight() });
        } finally {
          pix.destroy();
          page.destroy();
        }
      }
    } finally {
      doc.destroy();
    }
    return out;
  });
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const scan of scans) {
    const [w, h] = [(scan.width * 72) / dpi, (scan.height * 72) / dpi];
    const page = doc.addPage([w, h]);
    page.drawImage(await doc.embedJpg(scan.jpeg), { x: 0, y: 0, width: w, height: h });
    const key = page.node.newFontDictionary(font.name, font.ref);
    junk.forEach((line, k) =>
      page.pushOperators(
        beginText(),
        setFontAndSize(key, 11),
        setTextRenderingMode(TextRenderingMode.Invisible),
        moveText(40, h - 60 - k * 16),
        showText(font.encodeText(line)),
        endText(),
      ),
    );
  }
  return doc.save();
}
