import { describe, expect, it } from "vitest";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { decodePng } from "../../../src/engines/images/codecs/png";
import type { Pixels } from "../../../src/engines/images/types";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { fails, ok, withKey } from "./client";
import { file, jpegOf, photo, pngOf, withOrientation } from "../../support/images/fixtures";
import { formatOf, pngColorType, sizeOf } from "./inspect";
import { avifPrimaryType } from "../../support/images/avif-items";
import { pixelsOf } from "../../support/images/pixels";

// Big PNG inputs and big AVIF outputs take the banded roads (paths.ts): a
// non-interlaced PNG is inflated and un-filtered a band at a time, AVIF is
// written as a grid of tiles. What a user sees must not change: sizes,
// pixels, alpha, orientation; only memory does.

function meanAbsDiff(a: Pixels, b: Pixels): number {
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) for (let c = 0; c < 3; c++) sum += Math.abs(a.data[i + c] - b.data[i + c]);
  return sum / ((a.data.length / 4) * 3);
}

describe("big PNG inputs, read in bands", () => {
  // 3000 x 2400 = 7.2 MP: a whole decode (squoosh's PNG heap + RGBA) was refused above about 6 MP.
  const source = photo(3000, 2400);
  const pngBytes = pngOf(source);

  it("converts a 7.2 MP PNG to JPEG band by band, pixels kept", async () => {
    const out = await ok("/api/v1/image/convert", { file: file(await pngBytes, "big.png"), target_format: "jpg", quality: "90" });
    expect(formatOf(out.bytes)).toBe("jpeg");
    expect(sizeOf(out.bytes)).toEqual([3000, 2400]);
    // As close as MozJPEG at the same quality and chroma layout (bands are 4:2:0) on the whole picture.
    const reference = meanAbsDiff(source, await pixelsOf(await encodeJpeg(source, 90, { fixedSubsampling: true })));
    expect(meanAbsDiff(source, await pixelsOf(out.bytes))).toBeLessThan(reference * 1.1 + 0.2);
  });

  it("converts it to PNG losslessly, row by row", async () => {
    const out = await ok("/api/v1/image/convert", { file: file(await pngBytes, "big.png"), target_format: "png" });
    const back = await decodePng(out.bytes);
    expect(meanAbsDiff(source, back)).toBe(0);
    // The layout is chosen from the header before the first row: RGBA in, RGBA out.
    expect(pngColorType(out.bytes)).toBe(6);
  });

  it("resizes it to 1000 wide WebP through the streaming Lanczos3", async () => {
    const out = await ok("/api/v1/image/resize", { file: file(await pngBytes, "big.png"), width: "1000", target_format: "webp", quality: "90" });
    expect(formatOf(out.bytes)).toBe("webp");
    expect(sizeOf(out.bytes)).toEqual([1000, 800]);
    const small = await pixelsOf(out.bytes);
    // Gradient left to right in red, top to bottom in green; the disc is blue 200.
    const at = (x: number, y: number) => Array.from(small.data.subarray((y * 1000 + x) * 4, (y * 1000 + x) * 4 + 3));
    expect(at(990, 400)[0] - at(10, 400)[0]).toBeGreaterThan(200);
    expect(at(500, 790)[1] - at(500, 10)[1]).toBeGreaterThan(200);
    expect(Math.abs(at(500, 400)[2] - 200)).toBeLessThan(10);
  });

  it("compresses it to a palette PNG in two passes, smaller and close to the input", async () => {
    const input = await pngBytes;
    const out = await ok("/api/v1/image/compress", { file: file(input, "big.png"), quality: "70" });
    expect(formatOf(out.bytes)).toBe("png");
    expect(pngColorType(out.bytes)).toBe(3);
    expect(out.bytes.length).toBeLessThan(input.length);
    // The fixture's grain (up to +-16 in blue) is what a 256-colour palette gives up.
    expect(meanAbsDiff(source, await decodePng(out.bytes))).toBeLessThan(8);
  });

  it("compresses it losslessly at quality 100", async () => {
    const input = await pngBytes;
    const out = await ok("/api/v1/image/compress", { file: file(input, "big.png"), quality: "100" });
    expect(formatOf(out.bytes)).toBe("png");
    expect(meanAbsDiff(source, await decodePng(out.bytes))).toBe(0);
  });

  it("keeps alpha in a big PNG written as PNG and flattens it onto white for JPEG", async () => {
    const translucent = photo(2000, 1100, { alpha: true });
    const input = file(await pngOf(translucent), "alpha.png");
    const png = await ok("/api/v1/image/convert", { file: input, target_format: "png" });
    const back = await decodePng(png.bytes);
    expect(back.data[3]).toBe(0); // left quarter transparent
    expect(back.data[(100 * 2000 + 700) * 4 + 3]).toBe(128);
    const jpg = await ok("/api/v1/image/convert", { file: input, target_format: "jpeg" });
    const flat = await pixelsOf(jpg.bytes);
    // A fully transparent pixel becomes white.
    expect(Array.from(flat.data.subarray((100 * 2000 + 10) * 4, (100 * 2000 + 10) * 4 + 3)).every((v) => v > 245)).toBe(true);
  });

  it("a damaged big PNG is 422 invalid_image, nothing charged", async () => {
    const acct = await accountWithKey({ credits: 30 });
    const bytes = await pngBytes;
    const cut = bytes.slice(0, Math.floor(bytes.length / 2));
    for (const [path, extra] of [
      ["/api/v1/image/convert", { target_format: "jpg" }],
      ["/api/v1/image/compress", {}],
      ["/api/v1/image/resize", { width: "500" }],
    ] as const) {
      expect(await fails(path, { file: file(cut, "cut.png"), ...extra }, 422, withKey(acct.key))).toBe("invalid_image");
    }
    expect(await balanceOf(acct.token)).toBe(30);
  });
});

describe("big AVIF outputs, written as a grid of tiles", () => {
  it("converts a 2.6 MP JPEG to a grid AVIF that decodes to the same picture", async () => {
    const px = photo(2100, 1250);
    const out = await ok("/api/v1/image/convert", { file: file(await jpegOf(px, 95), "wide.jpg"), target_format: "avif", quality: "85" });
    expect(formatOf(out.bytes)).toBe("avif");
    expect(avifPrimaryType(out.bytes)).toBe("grid");
    expect(sizeOf(out.bytes)).toEqual([2100, 1250]);
    expect(meanAbsDiff(px, await pixelsOf(out.bytes))).toBeLessThan(4);
  });

  it("writes one AV1 frame where it fits beside its source, and a grid just past that", async () => {
    // One frame costs aom 16 MB + 37 B a pixel; beside a whole PNG decode (8 B a pixel)
    // 1.4 MP fits the 80 MiB of an image call and 1.498 MP does not, though both are under 1.5 MP.
    for (const [height, primary] of [
      [1400, "av01"],
      [1498, "grid"],
    ] as const) {
      const px = photo(1000, height);
      const out = await ok("/api/v1/image/convert", { file: file(await pngOf(px), "p.png"), target_format: "avif", quality: "80" });
      expect(avifPrimaryType(out.bytes), `1000 x ${height}`).toBe(primary);
      expect(meanAbsDiff(px, await pixelsOf(out.bytes))).toBeLessThan(4);
    }
  });

  it("keeps a big JPEG's EXIF orientation as AVIF rotation, so it displays upright", async () => {
    // Stored 2400 x 1000, orientation 6 (turn 90 degrees clockwise to view): upright 1000 x 2400.
    const stored = photo(2400, 1000);
    const jpeg = withOrientation(await jpegOf(stored, 95), 6);
    const out = await ok("/api/v1/image/convert", { file: file(jpeg, "portrait.jpg"), target_format: "avif", quality: "80" });
    expect([out.meta.width, out.meta.height]).toEqual([1000, 2400]);
    const upright = await pixelsOf(out.bytes);
    expect([upright.width, upright.height]).toEqual([1000, 2400]);
    // Stored row 0 (top) becomes the right-hand column once turned clockwise:
    // the stored gradient in red ran left to right, so it now runs top to bottom.
    const red = (x: number, y: number) => upright.data[(y * 1000 + x) * 4];
    expect(red(500, 2390) - red(500, 10)).toBeGreaterThan(200);
  });

  it("resizes a big PNG with alpha to a grid AVIF that keeps the alpha", async () => {
    const px = photo(2400, 1300, { alpha: true });
    const out = await ok("/api/v1/image/resize", { file: file(await pngOf(px), "a.png"), width: "2200", target_format: "avif", quality: "80" });
    expect(avifPrimaryType(out.bytes)).toBe("grid");
    const back = await pixelsOf(out.bytes);
    expect([back.width, back.height]).toEqual([2200, 1192]);
    expect(back.data[(600 * 2200 + 100) * 4 + 3]).toBeLessThan(10);
    expect(Math.abs(back.data[(600 * 2200 + 800) * 4 + 3] - 128)).toBeLessThan(10);
    expect(back.data[(600 * 2200 + 2000) * 4 + 3]).toBeGreaterThan(245);
  });
});
