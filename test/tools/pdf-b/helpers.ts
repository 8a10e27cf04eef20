import { PDFDocument, StandardFonts, degrees, rgb } from "pdf-lib";
import { loadMupdf } from "../../../src/engines/mupdf/loader";

// Fixtures for the PDF toolkit B tests: pages with rotation and crop boxes
// written by pdf-lib (an independent writer), images and locked or broken
// PDFs. Readings of outputs are in inspect.ts.

export interface PageSpec {
  size?: [number, number];
  rotate?: 0 | 90 | 180 | 270;
  /** pdf-lib crop box: x, y, width, height. */
  crop?: [number, number, number, number];
  lines?: string[];
  fontSize?: number;
}

export async function fixturePdf(pages: PageSpec[]): Promise<Uint8Array> {
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

export const plainPdf = (pages: number, label = "Page") => fixturePdf(Array.from({ length: pages }, (_, i) => ({ lines: [`${label} ${i + 1}`] })));

export async function makeImage(format: "png" | "jpeg", w: number, h: number, rgbColor: [number, number, number], hole = false): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
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
    return (format === "png" ? pix.asPNG() : pix.asJPEG(92)).slice();
  } finally {
    pix.destroy();
  }
}

export const file = (data: Uint8Array, name: string, type = "application/pdf") => new File([data], name, { type });

/** A PDF that needs a password to open (AES-256, written by MuPDF). */
export async function encryptedPdf(): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(await plainPdf(1), "application/pdf").asPDF()!;
  try {
    const buf = doc.saveToBuffer("encrypt=aes-256,user-password=secret,owner-password=owner");
    const out = buf.asUint8Array().slice();
    buf.destroy();
    return out;
  } finally {
    doc.destroy();
  }
}

/** Bytes that claim to be a PDF but hold no readable document. */
export const corruptPdf = (): Uint8Array => new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ngarbage garbage\n%%EOF\n");
