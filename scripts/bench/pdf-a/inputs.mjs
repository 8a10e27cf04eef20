// Inputs for scripts/bench/pdf-a.mjs, generated here so the bench needs no
// fixture files: text documents of 10 and 200 pages, an image-heavy one
// (scanned pages plus photos), their encrypted and damaged twins.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import encodeJpeg, { init as initJpeg } from "@jsquash/jpeg/encode.js";
import * as mupdf from "mupdf";
import { PDFDocument, StandardFonts } from "pdf-lib";

export async function textPdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 30; line++)
      page.drawText(`Page ${i} line ${line}: the quick brown fox jumps over the lazy dog`, { x: 40, y: 800 - line * 24, size: 10, font });
  }
  doc.setTitle(`Bench ${pages}`);
  return doc.save({ useObjectStreams: false });
}

/** Text documents of 10 and 200 pages, and docling's redp5110 when the corpus has it: the inputs of the page-tool sections. */
export async function textDocuments(corpus) {
  const docs = [
    ["10 pages", await textPdf(10)],
    ["200 pages", await textPdf(200)],
  ];
  const redp = join(corpus, "markdown/docling/redp5110_sampled.pdf");
  if (existsSync(redp)) docs.push(["redp5110", new Uint8Array(readFileSync(redp))]);
  return docs;
}

/** A tool's multipart body: the PDF as `file`, then the fields. */
export function pdfForm(bytes, fields) {
  const fd = new FormData();
  fd.append("file", new File([bytes], "bench.pdf", { type: "application/pdf" }));
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

let jpegReady;
async function jpeg(rgba, width, height, quality, root) {
  jpegReady ??= WebAssembly.compile(readFileSync(join(root, "wasm", "mozjpeg_enc.wasm"))).then((m) => initJpeg(m));
  await jpegReady;
  // Baseline, as scanners and cameras write them (a progressive 9 MP JPEG needs every coefficient in memory to decode).
  return new Uint8Array(await encodeJpeg({ data: rgba, width, height }, { quality, progressive: false }));
}

/** Deterministic scanner noise. */
function noise(seed) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5;
}

/**
 * Image-heavy: `scans` text pages of a real paper (docling's normal_4pages)
 * rendered at 300 dpi with paper tint and sensor noise, stored as q92 JPEGs
 * (what office scanners write), then the four photographs of docling's
 * redp5110 sample placed at 300 ppi, one per page.
 */
export async function imageHeavyPdf(corpus, root, scans = 4) {
  const paper = mupdf.Document.openDocument(readFileSync(join(corpus, "markdown/docling/normal_4pages.pdf")), "application/pdf");
  const photos = mupdf.Document.openDocument(readFileSync(join(corpus, "markdown/docling/redp5110_sampled.pdf")), "application/pdf").asPDF();
  const out = await PDFDocument.create();
  const rnd = noise(11);
  for (let i = 0; i < scans; i++) {
    const page = paper.loadPage(i % paper.countPages());
    const pix = page.toPixmap(mupdf.Matrix.scale(300 / 72, 300 / 72), mupdf.ColorSpace.DeviceRGB, false, true);
    const [w, h, src] = [pix.getWidth(), pix.getHeight(), pix.getPixels()];
    const rgba = new Uint8ClampedArray(w * h * 4);
    for (let p = 0; p < w * h; p++) {
      const n = rnd() * 16;
      for (let c = 0; c < 3; c++) rgba[p * 4 + c] = src[p * 3 + c] * 0.94 + n + (c === 2 ? -5 : 3);
      rgba[p * 4 + 3] = 255;
    }
    const image = await out.embedJpg(await jpeg(rgba, w, h, 92, root));
    out.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
    pix.destroy();
    page.destroy();
  }
  for (const num of [26, 276, 277, 278]) {
    const raw = photos.newIndirect(num).readRawStream();
    const image = await out.embedJpg(raw.asUint8Array().slice());
    raw.destroy();
    const [w, h] = [(image.width * 72) / 300, (image.height * 72) / 300];
    out.addPage([595, 842]).drawImage(image, { x: 40, y: 842 - 40 - h, width: w, height: h });
  }
  return out.save();
}

/** AES-256 with user and owner passwords, written by MuPDF. */
export function encrypted(bytes, user, owner) {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  const buf = doc.saveToBuffer(`encrypt=aes-256,user-password=${user},owner-password=${owner}`);
  const out = buf.asUint8Array().slice();
  buf.destroy();
  doc.destroy();
  return out;
}

/** Every cross-reference offset shifted and the trailer's startxref broken: a real repair job. */
export function damaged(bytes) {
  const text = Buffer.from(bytes).toString("latin1");
  const shifted = text.replace(/(\r?\n)(\d{10}) (\d{5}) n/g, (_m, nl, off, gen) => `${nl}${String(Number(off) + 3).padStart(10, "0")} ${gen} n`);
  return new Uint8Array(Buffer.from(shifted.replace(/startxref\s+\d+/, "startxref\n999999999"), "latin1"));
}

/** Gray rendering of every page through MuPDF in Node (not the Worker's code path). */
export function renderAll(bytes, dpi) {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  const pages = [];
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.loadPage(i);
    const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false, true);
    pages.push({ w: pix.getWidth(), h: pix.getHeight(), data: pix.getPixels().slice() });
    pix.destroy();
    page.destroy();
  }
  doc.destroy();
  return pages;
}

/** Mean SSIM, 8x8 windows stepping by 4 (Wang et al.; plain loops, kept apart from src/). */
export function ssim(a, b) {
  if (a.w !== b.w || a.h !== b.h) return 0;
  let total = 0;
  let n = 0;
  for (let y = 0; y + 8 <= a.h; y += 4) {
    for (let x = 0; x + 8 <= a.w; x += 4) {
      let sa = 0,
        sb = 0,
        saa = 0,
        sbb = 0,
        sab = 0;
      for (let j = 0; j < 8; j++) {
        const row = (y + j) * a.w + x;
        for (let i = 0; i < 8; i++) {
          const p = a.data[row + i];
          const q = b.data[row + i];
          sa += p;
          sb += q;
          saa += p * p;
          sbb += q * q;
          sab += p * q;
        }
      }
      const ma = sa / 64,
        mb = sb / 64;
      const va = saa / 64 - ma * ma,
        vb = sbb / 64 - mb * mb,
        cov = sab / 64 - ma * mb;
      total += ((2 * ma * mb + 6.5025) * (2 * cov + 58.5225)) / ((ma * ma + mb * mb + 6.5025) * (va + vb + 58.5225));
      n++;
    }
  }
  return total / n;
}

/** { mean, min } page SSIM of `after` against `before` at `dpi`. */
export function pageSsim(before, after, dpi) {
  const [a, b] = [renderAll(before, dpi), renderAll(after, dpi)];
  const values = a.map((page, i) => ssim(page, b[i]));
  return { mean: values.reduce((s, v) => s + v, 0) / values.length, min: Math.min(...values) };
}
