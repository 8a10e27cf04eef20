import { describe, expect, it } from "vitest";
import { encodeBmp } from "../../../src/engines/images/codecs/bmp";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { applyOrientation } from "../../../src/engines/images/pixels/orientation";
import { postForm, problem } from "../../support/http";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { bmpOf, file, gifOf, photo, tiffOf, withOrientation } from "../../support/images/fixtures";
import { pixelsOf } from "../../support/images/pixels";
import { ok, withKey } from "./client";
import { roadsOf, sampledDiff } from "./roads";
import { formatOf, sizeOf } from "./inspect";

// Phone-size pictures in and out of BMP, GIF and TIFF on the row roads
// (paths.ts): our readers give bands, our writers place rows as they come
// (BMP into the file's own buffer, GIF as one index a pixel after a palette
// pass, TIFF as compressed strips). Local workerd enforces no memory limit,
// so each case also asserts, from /admin/v1/runtime, the road it took.

/** BTYPE of the first Deflate block in a PNG's IDAT stream (0 stored, 1 fixed, 2 dynamic Huffman). */
function firstDeflateBlockType(png: Uint8Array): number {
  for (let at = 8; at + 8 < png.length; ) {
    const length = new DataView(png.buffer, png.byteOffset + at).getUint32(0);
    if (String.fromCharCode(...png.subarray(at + 4, at + 8)) === "IDAT") return (png[at + 8 + 2] >> 1) & 3;
    at += 12 + length;
  }
  throw new Error("no IDAT");
}

const convert = (bytes: Uint8Array, name: string, target: string) => ok("/api/v1/image/convert", { file: file(bytes, name), target_format: target });

describe("phone photos (EXIF orientation 6) to BMP, GIF and TIFF", () => {
  // 4800 x 3200 stored (15.4 MP), shown turned a quarter clockwise: 3200 x 4800 upright.
  const stored = photo(4800, 3200);
  const upright = applyOrientation(stored, 6);
  const jpeg = encodeJpeg(stored, 90).then((b) => withOrientation(b, 6));

  it("writes an upright 24-bit BMP into the file's own buffer", async () => {
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(await jpeg, "phone.jpg", "bmp");
    });
    expect(taken).toEqual({ sources: { "jpeg-bands": 1 }, sinks: { "bmp-rows": 1 } });
    const got = out as NonNullable<typeof out>;
    expect(formatOf(got.bytes)).toBe("bmp");
    expect(sizeOf(got.bytes)).toEqual([3200, 4800]);
    expect(got.bytes.length).toBe(54 + 3200 * 3 * 4800);
    // The same pixels as a whole decode of the JPEG turned upright (banded IDCT rounding aside).
    expect(sampledDiff(await pixelsOf(await jpeg), await pixelsOf(got.bytes))).toBeLessThan(0.5);
    expect(sampledDiff(upright, await pixelsOf(got.bytes))).toBeLessThan(4);
  });

  it("writes an upright GIF with one palette for the whole picture, up to 24 MP", async () => {
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(await jpeg, "phone.jpg", "gif");
    });
    expect(taken).toEqual({ sources: { "jpeg-bands": 1 }, sinks: { "gif-indices": 1 } });
    const got = out as NonNullable<typeof out>;
    expect(formatOf(got.bytes)).toBe("gif");
    expect(sizeOf(got.bytes)).toEqual([3200, 4800]);
    // 256 dithered colours of a smooth photo: close on average, not exact.
    expect(sampledDiff(upright, await pixelsOf(got.bytes))).toBeLessThan(8);
    // 24 MP, resized from the same file: the GIF road's estimate admits it.
    const big = await ok("/api/v1/image/resize", { file: file(await jpeg, "phone.jpg"), width: "4000", height: "6000", target_format: "gif" });
    expect(sizeOf(big.bytes)).toEqual([4000, 6000]);
  });

  it("writes a Deflate TIFF strip by strip, upright (gathered a band of upright rows per pass)", async () => {
    let out: Awaited<ReturnType<typeof ok>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(await jpeg, "phone.jpg", "tiff");
    });
    expect(taken).toEqual({ sources: { "jpeg-bands": 1 }, sinks: { "tiff-strips": 1 } });
    const got = out as NonNullable<typeof out>;
    expect(formatOf(got.bytes)).toBe("tiff");
    expect(sizeOf(got.bytes)).toEqual([3200, 4800]);
    expect([got.meta.width, got.meta.height]).toEqual([3200, 4800]);
    expect(sampledDiff(await pixelsOf(await jpeg), await pixelsOf(got.bytes))).toBeLessThan(0.5);
  });

  it("writes an upright PNG row by row from a turned phone photo", async () => {
    let out: Awaited<ReturnType<typeof ok>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(await jpeg, "phone.jpg", "png");
    });
    expect(taken).toEqual({ sources: { "jpeg-bands": 1 }, sinks: { "png-rows": 1 } });
    const got = out as NonNullable<typeof out>;
    expect(sizeOf(got.bytes)).toEqual([3200, 4800]);
    expect(sampledDiff(await pixelsOf(await jpeg), await pixelsOf(got.bytes))).toBeLessThan(0.5);
    // Resized on the way: the target is given upright.
    const small = await ok("/api/v1/image/resize", { file: file(await jpeg, "phone.jpg"), width: "1600", target_format: "png" });
    expect(sizeOf(small.bytes)).toEqual([1600, 2400]);
    const shown = await pixelsOf(small.bytes);
    // Left column of the upright picture is the stored bottom row: compare a pixel near each corner.
    const ref = await pixelsOf(await jpeg);
    for (const [x, y] of [
      [10, 10],
      [1590, 10],
      [10, 2390],
      [1590, 2390],
    ]) {
      const o = (y * 1600 + x) * 4;
      const r = (Math.round(y * 2) * 3200 + Math.round(x * 2)) * 4;
      for (let c = 0; c < 3; c++) expect(Math.abs(shown.data[o + c] - ref.data[r + c])).toBeLessThan(24);
    }
  });

  it("refuses a BMP past what its file alone allows, naming the largest that fits", async () => {
    // 24 MP of 24-bit BMP is 72 MB of file, held whole (rows land anywhere when the picture turns).
    const res = await postForm("/api/v1/image/resize", { file: file(await jpeg, "phone.jpg"), width: "4000", height: "6000", target_format: "bmp" });
    const body = await problem(res);
    expect([res.status, body.code]).toEqual([422, "image_too_large"]);
    expect(body.detail).toMatch(/largest output that fits this way is about 1[6-9]\.\d MP/);
  });
});

describe("big BMP, GIF and TIFF inputs, read in bands", () => {
  const source = photo(4800, 3000); // 14.4 MP: above what the whole decoders allowed for these formats

  it("reads a 24-bit BMP row by row, losslessly to PNG", async () => {
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(encodeBmp(source), "big.bmp", "png");
    });
    expect(taken).toEqual({ sources: { "bmp-bands": 1 }, sinks: { "png-rows": 1 } });
    const got = (out as NonNullable<typeof out>).bytes;
    const back = await pixelsOf(got);
    expect(sampledDiff(source, back)).toBe(0);
    // Compressed by the runtime's zlib: fflate's road would open with a stored block (its 32 KB primer).
    expect(firstDeflateBlockType(got)).not.toBe(0);
  });

  it("reads a GIF's frame once and composites bands, losslessly to PNG", async () => {
    const gif = gifOf(source);
    const whole = await pixelsOf(gif);
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(gif, "big.gif", "png");
    });
    expect(taken).toEqual({ sources: { "gif-bands": 1 }, sinks: { "png-rows": 1 } });
    expect(sampledDiff(whole, await pixelsOf((out as NonNullable<typeof out>).bytes))).toBe(0);
  });

  it("reads an uncompressed single-strip TIFF in row runs, and our Deflate strips back, losslessly", async () => {
    const tiffSource = photo(3000, 2800); // 8.4 MP of RGBA: 33.6 MB, inside the upload limit
    let first: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      first = await convert(tiffOf(tiffSource), "big.tif", "tiff");
    });
    expect(taken).toEqual({ sources: { "tiff-bands": 1 }, sinks: { "tiff-strips": 1 } });
    const deflated = (first as NonNullable<typeof first>).bytes;
    let second: Awaited<ReturnType<typeof convert>> | undefined;
    const again = await roadsOf(async () => {
      second = await convert(deflated, "again.tif", "png");
    });
    expect(again).toEqual({ sources: { "tiff-bands": 1 }, sinks: { "png-rows": 1 } });
    expect(sampledDiff(tiffSource, await pixelsOf((second as NonNullable<typeof second>).bytes))).toBe(0);
  });

  it("compresses a big BMP losslessly and a big GIF with a fresh palette, in their own formats", async () => {
    // A 32-bit BMP (alpha byte unused) of 10.8 MP: 43 MB in, 24-bit and smaller out.
    const bmpSource = photo(3600, 3000);
    const bmp = bmpOf(bmpSource);
    let out: Awaited<ReturnType<typeof ok>> | undefined;
    const taken = await roadsOf(async () => {
      out = await ok("/api/v1/image/compress", { file: file(bmp, "big.bmp"), quality: "60" });
    });
    expect(taken).toEqual({ sources: { "bmp-bands": 1 }, sinks: { "bmp-rows": 1 } });
    const got = out as NonNullable<typeof out>;
    expect(formatOf(got.bytes)).toBe("bmp");
    expect(got.bytes.length).toBeLessThan(bmp.length);
    expect(sampledDiff(bmpSource, await pixelsOf(got.bytes))).toBe(0);
    const gifOut = await ok("/api/v1/image/compress", { file: file(gifOf(source), "big.gif"), quality: "40" });
    expect(formatOf(gifOut.bytes)).toBe("gif");
    expect(sizeOf(gifOut.bytes)).toEqual([4800, 3000]);
  });
});

describe("past what fits", () => {
  it("states the largest size that would fit, charges nothing", async () => {
    const acct = await accountWithKey({ credits: 30 });
    // 40 MP of BMP output cannot be held (3 bytes a pixel in the file alone).
    const res = await postForm("/api/v1/image/resize", { file: file(bmpOf(photo(400, 300)), "small.bmp"), width: "7300", height: "5500" }, withKey(acct.key));
    const body = await problem(res);
    expect(res.status).toBe(422);
    expect(body.code).toBe("image_too_large");
    expect(body.detail).toMatch(/largest output that fits this way is about \d+\.\d MP/);
    expect(await balanceOf(acct.token)).toBe(30);
  });
});
