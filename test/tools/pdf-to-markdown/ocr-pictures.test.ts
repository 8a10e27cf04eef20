import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { layoutPdf } from "../../support/pdf.mjs";
import { withMupdf } from "../../support/mupdf";
import { toMarkdown } from "./client";

// A table drawn as a picture on a page that has a text layer (a screenshot
// pasted into a born-digital report) goes through the OCR Worker, and its
// words take the picture's place: the table comes out as a pipe table
// between the paragraphs around it (docs/engines/layout.md, Pictures of
// text). A photo adds nothing. The pictures are made here: a text PDF's
// table rendered to a PNG, and seeded blotches. (What OCR may read in a
// photo, unsure or junk words, is left out by rules tested in
// src/engines/layout/pictures.test.ts.)

const FIRST = "The survey covered three regions over the whole of the last year.";
const SECOND = "Every region reported its figures to the central office in time.";
const ROWS = [
  ["Region", "Units", "Revenue"],
  ["North", "1200", "5600"],
  ["South", "980", "4100"],
  ["West", "450", "2300"],
];

/** A PNG of the table as a screenshot shows it: rendered from a text PDF at 150 dpi, the text layer gone. */
async function tablePicture(): Promise<{ png: Uint8Array; width: number; height: number }> {
  const source = await layoutPdf([ROWS.flatMap((row, r) => row.map((text, c) => ({ text, x: 20 + c * 110, y: 30 + r * 22, size: 12 })))]);
  const dpi = 150;
  const [w, h] = [340, 100];
  const png = await withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(source, "application/pdf");
    try {
      const page = doc.loadPage(0);
      const scale = dpi / 72;
      const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, Math.round(w * scale), Math.round(h * scale)], false);
      try {
        pix.clear(255);
        const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
        page.run(device, mupdf.Matrix.scale(scale, scale));
        device.close();
        device.destroy();
        return pix.asPNG().slice();
      } finally {
        pix.destroy();
        page.destroy();
      }
    } finally {
      doc.destroy();
    }
  });
  return { png, width: w, height: h };
}

/** Seeded blotches, as a photo's texture looks to OCR: no text in it. */
async function noisePicture(): Promise<Uint8Array> {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return withMupdf((mupdf) => {
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, 400, 160], false);
    try {
      const px = pix.getPixels();
      // Dark and light blotches of several sizes, as a photo's texture gives a binariser: specks Tesseract may take for letters.
      const stride = pix.getStride();
      px.fill(255);
      for (let k = 0; k < 900; k++) {
        const [cx, cy, r] = [Math.floor(next() * 400), Math.floor(next() * 160), 1 + Math.floor(next() * 6)];
        const v = next() < 0.6 ? 0 : 120;
        for (let y = Math.max(0, cy - r); y < Math.min(160, cy + r); y++)
          for (let x = Math.max(0, cx - 2 * r); x < Math.min(400, cx + 2 * r); x++) px[y * stride + x] = v;
      }
      return pix.asPNG().slice();
    } finally {
      pix.destroy();
    }
  });
}

/** A born-digital page: a paragraph, the table as a picture, a paragraph, and (optionally) a photo at the foot. */
async function report(withPhoto: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText(FIRST, { x: 72, y: 842 - 100, size: 11, font, color: rgb(0, 0, 0) });
  const table = await tablePicture();
  page.drawImage(await doc.embedPng(table.png), { x: 72, y: 842 - 140 - table.height, width: table.width, height: table.height });
  page.drawText(SECOND, { x: 72, y: 842 - 280, size: 11, font, color: rgb(0, 0, 0) });
  if (withPhoto) page.drawImage(await doc.embedPng(await noisePicture()), { x: 72, y: 842 - 330 - 160, width: 300, height: 120 });
  return doc.save();
}

const withoutImages = (md: string) => md.replace(/^!\[\]\(#page-\d+-image-\d+\)\n*/gm, "");

describe("PDF to Markdown: pictures of text on text pages go through OCR", () => {
  it("reads a table drawn as a picture into a pipe table between the paragraphs around it", async () => {
    const body = await toMarkdown(await report(false));
    expect(body).toMatchObject({ engine: "ocr", pages: 1, pages_without_text: [] });
    const md = body.markdown;
    for (const row of ROWS) expect(md).toMatch(new RegExp(`^\\| *${row.join(" *\\| *")} *\\|$`, "m"));
    const [first, table, second] = [md.indexOf(FIRST), md.indexOf("| North"), md.indexOf(SECOND)];
    expect(first).toBeGreaterThanOrEqual(0);
    expect(table).toBeGreaterThan(first);
    expect(second).toBeGreaterThan(table);
    // The picture became the table: no image reference is left for it.
    expect(md).not.toContain("![](");
  });

  it("adds nothing for a photo: its picture stays a picture", async () => {
    const body = await toMarkdown(await report(true));
    const md = body.markdown;
    // The table's picture is read, the photo's is kept as a picture with no words of its own.
    expect(md).toMatch(/^\| *North *\| *1200 *\| *5600 *\|$/m);
    expect(md).toMatch(/!\[\]\(#page-1-image-\d\)/);
    const text = withoutImages(md);
    const tableEnd = text.lastIndexOf("|") + 1;
    expect(text.slice(tableEnd).trim()).toBe(SECOND);
    // Only the photo: the layout reading stands as it was, with no OCR.
    const photoOnly = await toMarkdown(
      await (async () => {
        const doc = await PDFDocument.create();
        const font = await doc.embedFont(StandardFonts.Helvetica);
        const page = doc.addPage([595, 842]);
        page.drawText(FIRST, { x: 72, y: 842 - 100, size: 11, font, color: rgb(0, 0, 0) });
        page.drawImage(await doc.embedPng(await noisePicture()), { x: 72, y: 842 - 300, width: 300, height: 120 });
        return doc.save();
      })(),
    );
    expect(photoOnly).toMatchObject({ engine: "layout", pages_without_text: [] });
    expect(photoOnly.markdown).toBe(`${FIRST}\n\n![](#page-1-image-1)\n`);
  });
});
