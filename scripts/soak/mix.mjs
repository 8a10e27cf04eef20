// The files and calls of `npm run soak`: every built tool, on files made
// here (pdf-lib for PDFs, MuPDF in Node for the locked PDF, scans and images),
// so the run needs nothing beside the checkout.
import { zipSync } from "fflate";
import * as mupdf from "mupdf";
import { PDFDocument } from "pdf-lib";
import { textPdf } from "../../test/support/pdf.mjs";

/** Renders page 1 of `pdf` as a picture the image tools and the scan PDF use. */
function picture(pdf, dpi, format) {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  const page = doc.loadPage(0);
  const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true);
  try {
    return format === "png" ? pix.asPNG().slice() : pix.asJPEG(90, false).slice();
  } finally {
    pix.destroy();
    page.destroy();
    doc.destroy();
  }
}

async function scanPdf(jpeg, pages) {
  const out = await PDFDocument.create();
  const img = await out.embedJpg(jpeg);
  for (let i = 0; i < pages; i++) out.addPage([595, 842]).drawImage(img, { x: 0, y: 0, width: 595, height: 842 });
  return out.save();
}

function locked(pdf) {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf").asPDF();
  const buf = doc.saveToBuffer("encrypt=aes-256,user-password=secret,owner-password=owner");
  try {
    return buf.asUint8Array().slice();
  } finally {
    buf.destroy();
    doc.destroy();
  }
}

/** A DOCX of a few hundred KB whose parts inflate to 240 MB (a media part of zeros). */
function docxBomb() {
  const xml = (text) => new TextEncoder().encode(text);
  return zipSync(
    {
      "[Content_Types].xml": xml(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      "_rels/.rels": xml(
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      "word/document.xml": xml(
        '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>bomb</w:t></w:r></w:p></w:body></w:document>',
      ),
      "word/media/zeros.bin": new Uint8Array(240 * 1024 * 1024),
    },
    { level: 9 },
  );
}

/** Files no tool should accept whole: each must be a clear 4xx, never a 5xx, a hang or a grown isolate. */
export function hostileFiles() {
  return { newlines: new Uint8Array(30 * 1024 * 1024).fill(10), docxBomb: docxBomb() };
}

export async function soakFiles() {
  const text40 = await textPdf(40);
  const small = await textPdf(3);
  const photo = picture(small, 150, "jpeg"); // about 1240 x 1754
  return { text40, small, locked: locked(text40), scan: await scanPdf(photo, 3), photo, png: picture(small, 72, "png") };
}

const form = (fields) => () => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) fd.append(k, item instanceof Uint8Array ? new File([item], "f") : item);
  return fd;
};
const pdf = (bytes, name = "doc.pdf") => new File([bytes], name, { type: "application/pdf" });
const image = (bytes, name) => new File([bytes], name);
const base64 = (bytes) => Buffer.from(bytes).toString("base64");

/** One entry per call kind; clients walk it round-robin from different offsets. */
export function soakMix(f) {
  const multipart = (tool, path, fields) => ({ tool, path, headers: {}, body: form(fields) });
  const json = (tool, path, value) => ({ tool, path, headers: { "Content-Type": "application/json" }, body: () => JSON.stringify(value) });
  return [
    multipart("merge", "/api/v1/pdf/merge/merge", { files: [pdf(f.text40, "a.pdf"), pdf(f.small, "b.pdf")] }),
    multipart("split", "/api/v1/pdf/split/split", {
      file: pdf(f.text40),
      split_mode: "page_range",
      split_config: JSON.stringify({
        ranges: [
          [1, 20],
          [21, 40],
        ],
      }),
    }),
    json("compress", "/api/v1/compression/single", { file_data: base64(f.text40), filename: "doc.pdf" }),
    json("compress_scan", "/api/v1/compression/single", { file_data: base64(f.scan), filename: "scan.pdf" }),
    multipart("watermark_text", "/api/v1/watermark/text", { file: pdf(f.text40), text: "CONFIDENTIAL" }),
    multipart("watermark_image", "/api/v1/watermark/image", { file: pdf(f.text40), watermark: image(f.png, "stamp.png") }),
    multipart("page_numbers", "/api/v1/pdf/page-numbers", { file: pdf(f.text40), fmt: "Page {n} of {total}" }),
    multipart("metadata", "/api/v1/analyze/metadata", { file: pdf(f.text40) }),
    multipart("redact", "/api/v1/redact", { file: pdf(f.small), entity_types: "email,phone" }),
    multipart("unlock", "/api/v1/security/security/password/remove", { file: pdf(f.locked, "locked.pdf"), password: "secret" }),
    multipart("repair", "/api/v1/pdf/repair", { file: pdf(f.text40) }),
    multipart("pdfa", "/api/v1/pdf/pdfa/validate", { file: pdf(f.text40) }),
    multipart("image_compress", "/api/v1/image/compress", { file: image(f.photo, "photo.jpg"), quality: "70" }),
    multipart("image_convert", "/api/v1/image/convert", { file: image(f.png, "page.png"), target_format: "webp" }),
    multipart("image_resize", "/api/v1/image/resize", { file: image(f.photo, "photo.jpg"), width: "600" }),
  ];
}

// Pages whose script never yields, or that navigate themselves: a render
// answers 422 page_load_timeout or what the page lands on, and frees its browser.
const SPINNING_PAGE = "<!doctype html><p>spins</p><script>setTimeout(() => { for (;;) {} }, 0)</script>";
const REFRESHING_PAGE = '<!doctype html><meta http-equiv="refresh" content="0;url=about:blank"><p>refreshes</p>';

/** Hostile calls, mixed in at a lower rate; 4xx is their expected answer. */
export function hostileMix(h) {
  const multipart = (tool, path, fields) => ({ tool, path, headers: {}, body: form(fields), hostile: true });
  const named = (bytes, name) => new File([bytes], name);
  return [
    multipart("txt_newlines", "/api/v1/conversion/single", { file: named(h.newlines, "newlines.txt"), target_format: "pdf" }),
    multipart("docx_bomb", "/api/v1/conversion/single", { file: named(h.docxBomb, "bomb.docx"), target_format: "pdf" }),
    multipart("spinning_page", "/api/v1/html/to-pdf", { html: SPINNING_PAGE }),
    multipart("refresh_page", "/api/v1/html/to-pdf", { html: REFRESHING_PAGE }),
  ];
}
