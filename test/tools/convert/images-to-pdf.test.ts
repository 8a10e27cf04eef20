import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { avifOf, bmpOf, gifOf, jpegOf, photo, pngOf, tiffOf, webpOf, withOrientation } from "../../support/images/fixtures";
import { converted } from "./support";

// Image → PDF (mupdf-image): one page at the image's pixel size; a JPEG is
// embedded byte for byte (DCTDecode), the rest losslessly. Read with pdf-lib.

interface ImageXObject {
  filter: string;
  width: number;
  height: number;
  data: Uint8Array;
  smask: boolean;
}

async function readImagePdf(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf);
  const images: ImageXObject[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream) || obj.dict.lookup(PDFName.of("Subtype"))?.toString() !== "/Image") continue;
    images.push({
      filter: obj.dict.lookup(PDFName.of("Filter"))?.toString() ?? "",
      width: obj.dict.lookup(PDFName.of("Width"), PDFNumber).asNumber(),
      height: obj.dict.lookup(PDFName.of("Height"), PDFNumber).asNumber(),
      data: obj.contents,
      smask: obj.dict.get(PDFName.of("SMask")) !== undefined,
    });
  }
  const page = doc.getPage(0);
  return { pages: doc.getPageCount(), size: [page.getWidth(), page.getHeight()], images };
}

describe("Convert document: images → PDF (mupdf-image)", () => {
  it("a JPEG is embedded as it is: DCTDecode, byte-identical, page at its pixel size", async () => {
    const jpeg = await jpegOf(photo(320, 200));
    const { body, out } = await converted(jpeg, "photo.jpg", "pdf", "mupdf-image");
    expect(body.metadata.source_format).toBe("jpg");
    expect(body.quality_score).toBe(1);
    const pdf = await readImagePdf(out);
    expect(pdf.pages).toBe(1);
    expect(pdf.size).toEqual([320, 200]);
    expect(pdf.images).toHaveLength(1);
    expect(pdf.images[0].filter).toBe("/DCTDecode");
    expect(Buffer.from(pdf.images[0].data).equals(Buffer.from(jpeg))).toBe(true);
  });

  it("an EXIF-rotated JPEG stays byte-identical and its page is upright (width and height swapped)", async () => {
    const jpeg = withOrientation(await jpegOf(photo(300, 120)), 6);
    const { out } = await converted(jpeg, "turned.jpeg", "pdf", "mupdf-image");
    const pdf = await readImagePdf(out);
    expect(pdf.size).toEqual([120, 300]);
    expect(Buffer.from(pdf.images[0].data).equals(Buffer.from(jpeg))).toBe(true);
  });

  it.each([
    ["png", (px: ReturnType<typeof photo>) => pngOf(px)],
    ["webp", (px: ReturnType<typeof photo>) => webpOf(px, 100)],
    ["gif", (px: ReturnType<typeof photo>) => gifOf(px)],
    ["bmp", (px: ReturnType<typeof photo>) => bmpOf(px)],
    ["tiff", (px: ReturnType<typeof photo>) => tiffOf(px)],
    ["avif", (px: ReturnType<typeof photo>) => avifOf(px)],
  ] as const)("%s → one page at its pixel size, stored losslessly (Flate)", async (ext, encode) => {
    const bytes = await encode(photo(96, 64));
    const { body, out } = await converted(bytes, `picture.${ext}`, "pdf", "mupdf-image");
    expect(body.metadata.source_format).toBe(ext);
    const pdf = await readImagePdf(out);
    expect(pdf.pages).toBe(1);
    expect(pdf.size).toEqual([96, 64]);
    expect(pdf.images[0]).toMatchObject({ filter: "/FlateDecode", width: 96, height: 64 });
  });

  it("a PNG with transparency keeps it as a soft mask", async () => {
    const { out } = await converted(await pngOf(photo(50, 40, { alpha: true })), "alpha.png", "pdf", "mupdf-image");
    const pdf = await readImagePdf(out);
    expect(pdf.images.some((i) => i.smask)).toBe(true);
  });
});
