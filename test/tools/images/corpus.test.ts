import { expect, it } from "vitest";
import { decodeImage } from "../../../src/engines/images/codecs/decode";
import { corpusFile, corpusManifest, describeWithCorpus } from "../../support/corpus";
import { fails, ok } from "./client";
import { file } from "../../support/images/fixtures";
import { formatOf, sizeOf } from "./inspect";
import { pixelsOf, rgbaAt } from "../../support/images/pixels";

// shared/corpus/images: what each odd file must give through convert -> PNG.
// Sizes are as displayed (EXIF / irot orientation applied).
const EXPECTED: Record<string, [number, number] | "invalid_image" | "image_too_large"> = {
  "libjpeg-turbo/testimgint.jpg": [227, 149],
  // Arithmetic coding: MozJPEG's build lacks it; our decoder handles it.
  "libjpeg-turbo/testimgari.jpg": [227, 149],
  "libjpeg-turbo/monkey12.jpg": "invalid_image",
  "libjpeg-turbo/monkey16.png": [149, 227],
  "libjpeg-turbo/vgl_6434_0018a.bmp": [119, 96],
  "libjpeg-turbo/vgl_5674_0098.png": [120, 96],
  "libvips/sample.jpg": [290, 442],
  "libvips/sample.png": [290, 442],
  "libvips/sample.tif": [290, 442],
  "libvips/subsampled.tif": [250, 325],
  "libvips/1bit.tif": [256, 4],
  "libvips/ojpeg-strip.tif": "invalid_image",
  "libvips/rgba.png": [128, 128],
  "libvips/trans-x.png": [100, 100],
  "libvips/cogs.gif": [85, 77],
  "libvips/dispose-background.gif": [192, 168],
  // 12.2 MP single-frame AVIF (8-bit 4:2:0, stored 4032 x 3024, orientation 6):
  // libavif would need ~18 bytes a pixel; it converts on the "avif-bands" road
  // (our dav1d build holds the planes, about 2.3 bytes a pixel). The missing
  // `pixi` property we add for libavif is still checked at engine level below.
  "libvips/avif-orientation-6.avif": [3024, 4032],
  "libvips/sample-xyb.jpg": [290, 442],
};

describeWithCorpus("image corpus", () => {
  it("lists every manifest file here", async () => {
    const rows = await corpusManifest("images");
    expect(rows.map((r) => r.file).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name}: ${Array.isArray(expected) ? expected.join("x") : expected}`, async () => {
      const bytes = await corpusFile(`images/${name}`);
      const upload = file(bytes, name.split("/")[1]);
      if (!Array.isArray(expected)) {
        expect(await fails("/api/v1/image/convert", { file: upload, target_format: "png" }, 422)).toBe(expected);
        return;
      }
      const out = await ok("/api/v1/image/convert", { file: upload, target_format: "png" });
      expect(formatOf(out.bytes)).toBe("png");
      expect(sizeOf(out.bytes)).toEqual(expected);
    });
  }

  it("decodes the AVIF that lacks the pixi property libavif insists on (engine level, no Worker budget)", async () => {
    // Despite its name it has no irot and its EXIF says orientation 1; the pixels are upright.
    const d = await decodeImage(await corpusFile("images/libvips/avif-orientation-6.avif"));
    expect([d.pixels.width, d.pixels.height]).toEqual([3024, 4032]);
  });

  it("decodes the arithmetic-coded JPEG to exactly the pixels of its Huffman twin", async () => {
    const convert = async (name: string) =>
      pixelsOf((await ok("/api/v1/image/convert", { file: file(await corpusFile(`images/libjpeg-turbo/${name}`), name), target_format: "png" })).bytes);
    const [ari, int] = [await convert("testimgari.jpg"), await convert("testimgint.jpg")];
    expect(Array.from(ari.data)).toEqual(Array.from(int.data));
  });

  it("converts YCbCr-subsampled TIFF colours, not raw luma/chroma", async () => {
    // Raw YCbCr data read as RGB (or misplaced strips) shows as saturated green
    // with red and blue near zero; the real cat photo has almost none.
    const px = await pixelsOf(
      (await ok("/api/v1/image/convert", { file: file(await corpusFile("images/libvips/subsampled.tif"), "s.tif"), target_format: "png" })).bytes,
    );
    let raw = 0;
    for (let y = 0; y < px.height; y += 5)
      for (let x = 0; x < px.width; x += 5) {
        const [r, g, b] = rgbaAt(px, x, y);
        if (r < 8 && b < 8 && g > 100) raw++;
      }
    expect(raw).toBeLessThan(20);
    // The face in the middle is grey-brown: red close to green.
    const [r, g] = rgbaAt(px, 125, 150);
    expect(Math.abs(r - g)).toBeLessThan(50);
  });
});
