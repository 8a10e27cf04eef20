import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call, postForm, problem } from "../../support/http";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { avifOf, file, halves, jpegOf, photo, pngOf, withOrientation } from "../../support/images/fixtures";
import { near, pixelsOf, rgbaAt } from "../../support/images/pixels";
import { ok } from "./client";
import { okOnRoads, roadsOf, sampledDiff } from "./roads";
import { formatOf, sizeOf } from "./inspect";
import { libavifOf } from "../../support/images/libavif";
import { encodeAvifStill } from "../../../src/engines/images/avif/still";

// AVIF inputs past what libavif's whole decode allows in a Worker, read on
// the "avif-bands" road: our dav1d build keeps the picture as YUV planes and
// rows are converted to RGBA a band at a time. Pixels are checked against
// libavif's decode of the same file (the test's own decoder); the road
// taken is read from /admin/v1/runtime, since local workerd enforces no
// memory limit and any road would pass an output check.

const convert = (bytes: Uint8Array, name: string, target: string) => ok("/api/v1/image/convert", { file: file(bytes, name), target_format: target });

/** The same file with the primary item's ispe claiming another size (the check happens before any decoding). */
function withIspe(avif: Uint8Array, width: number, height: number): Uint8Array {
  const out = avif.slice();
  const at = out.findIndex((_, i) => out[i] === 0x69 && out[i + 1] === 0x73 && out[i + 2] === 0x70 && out[i + 3] === 0x65);
  const view = new DataView(out.buffer);
  view.setUint32(at + 8, width);
  view.setUint32(at + 12, height);
  return out;
}

describe("AVIF inputs read in bands (dav1d)", () => {
  // 2.6 MP: past the 2 MP where the banded roads start, small enough for the test's libavif encoder.
  const opaque = avifOf(photo(2000, 1300), 80);
  const translucent = avifOf(photo(2000, 1300, { alpha: true }), 80);

  it("converts an 8-bit 4:2:0 AVIF to PNG with libavif's pixels", async () => {
    const avif = await opaque;
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(avif, "photo.avif", "png");
    });
    expect(taken).toEqual({ sources: { "avif-bands": 1 }, sinks: { "png-rows": 1 } });
    const got = out as NonNullable<typeof out>;
    expect(formatOf(got.bytes)).toBe("png");
    expect(sizeOf(got.bytes)).toEqual([2000, 1300]);
    // PNG is lossless: what differs is the YUV to RGB rounding of two converters.
    expect(sampledDiff(await pixelsOf(avif), await pixelsOf(got.bytes))).toBeLessThan(1);
  });

  it("keeps the alpha item", async () => {
    const avif = await translucent;
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(avif, "glass.avif", "png");
    });
    expect(taken.sources).toEqual({ "avif-bands": 1 });
    const reference = await pixelsOf(avif);
    const back = await pixelsOf((out as NonNullable<typeof out>).bytes);
    // The fixture has translucent pixels, and they come through.
    expect(Array.from(back.data).some((v, i) => i % 4 === 3 && v < 128)).toBe(true);
    expect(sampledDiff(reference, back, [3])).toBeLessThan(1);
    expect(sampledDiff(reference, back)).toBeLessThan(1.5);
  });

  it("writes WebP and JPEG from the same bands", async () => {
    const avif = await opaque;
    const reference = await pixelsOf(avif);
    for (const [target, sink] of [
      ["webp", "webp-planes"],
      ["jpg", "jpeg-bands"],
    ]) {
      let out: Awaited<ReturnType<typeof convert>> | undefined;
      const taken = await roadsOf(async () => {
        out = await convert(avif, "photo.avif", target);
      });
      expect(taken, target).toEqual({ sources: { "avif-bands": 1 }, sinks: { [sink]: 1 } });
      expect(sampledDiff(reference, await pixelsOf((out as NonNullable<typeof out>).bytes)), target).toBeLessThan(4);
    }
  });

  it("reads one frame twice from one decode for a GIF's two passes (palette, then indices)", async () => {
    const avif = await opaque;
    const { out, taken } = await okOnRoads("/api/v1/image/convert", { file: file(avif, "photo.avif"), target_format: "gif" });
    expect(taken).toEqual({ sources: { "avif-bands": 1 }, sinks: { "gif-indices": 1 } });
    // A palette of 256 colours: close, not equal.
    expect(sampledDiff(await pixelsOf(avif), await pixelsOf(out.bytes))).toBeLessThan(12);
  });

  // The heavier layouts: 16-bit samples in dav1d's planes past 8 bits, chroma at full size in 4:4:4.
  for (const [label, make] of [
    ["an 8-bit 4:4:4 (our writer)", () => encodeAvifStill(photo(2000, 1300), 80, { chroma: "444" })],
    ["a 10-bit 4:2:0 (libavif)", () => libavifOf(photo(2000, 1300), 10, 1)],
    ["a 12-bit 4:4:4 (libavif)", () => libavifOf(photo(2000, 1300), 12, 3)],
  ] as const) {
    it(`converts ${label} AVIF in bands with libavif's pixels`, async () => {
      const avif = await make();
      const { out, taken } = await okOnRoads("/api/v1/image/convert", { file: file(avif, "deep.avif"), target_format: "png" });
      expect(taken).toEqual({ sources: { "avif-bands": 1 }, sinks: { "png-rows": 1 } });
      expect(sizeOf(out.bytes)).toEqual([2000, 1300]);
      expect(sampledDiff(await pixelsOf(avif), await pixelsOf(out.bytes))).toBeLessThan(1);
    });
  }

  it("charges a heavier layout its own figure: a 10-bit 4:4:4 frame fits less than an 8-bit 4:2:0 one", async () => {
    // The same claimed 12 MP: 8-bit 4:2:0 costs about 2.2 bytes a pixel and converts; 10-bit 4:4:4 about 7.7 and is refused, naming what fits.
    const deep = withIspe(await libavifOf(photo(400, 300), 10, 3), 4000, 3000);
    const res = await postForm("/api/v1/image/convert", { file: file(deep, "deep.avif"), target_format: "jpg" });
    const body = await problem(res);
    expect([res.status, body.code]).toEqual([422, "image_too_large"]);
    const fits = Number(/about ([\d.]+) MP\. Send/.exec(String(body.detail))?.[1]);
    expect(fits).toBeGreaterThan(4);
    expect(fits).toBeLessThan(12);
  });

  itWithCorpus("reads a 12 MP AVIF that libavif could not take whole", async () => {
    // libvips' test file: 3024 x 4032, 8-bit 4:2:0, one frame (despite its name, upright: no irot, EXIF orientation 1).
    const avif = await corpusFile("images/libvips/avif-orientation-6.avif");
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(avif, "phone.avif", "jpg");
    });
    expect(taken).toEqual({ sources: { "avif-bands": 1 }, sinks: { "jpeg-bands": 1 } });
    // The decoder instance was the call's own: its heap is gone with it.
    const runtime = (await (await call("/admin/v1/runtime", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as {
      wasm_heaps: Record<string, number>;
    };
    expect(runtime.wasm_heaps.av1_dec).toBe(0);
    const shown = await pixelsOf((out as NonNullable<typeof out>).bytes);
    expect([shown.width, shown.height]).toEqual([3024, 4032]);
    expect(sampledDiff(await pixelsOf(avif), shown)).toBeLessThan(3);
  });

  it("applies the container's irot: a phone photo's orientation kept by our own AVIF output", async () => {
    // A JPEG shown turned a quarter clockwise (EXIF 6) becomes an AVIF grid with irot/imir.
    const stored = photo(2000, 1300);
    const avif = (await convert(withOrientation(await jpegOf(stored, 90), 6), "phone.jpg", "avif")).bytes;
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(avif, "phone.avif", "webp");
    });
    expect(taken).toEqual({ sources: { "avif-tiles": 1 }, sinks: { "webp-planes": 1 } });
    const shown = await pixelsOf((out as NonNullable<typeof out>).bytes);
    expect([shown.width, shown.height]).toEqual([1300, 2000]);
    // libavif's decode turned by the same properties.
    expect(sampledDiff(await pixelsOf(avif), shown)).toBeLessThan(4);
  });

  it("reads our own 12 MP grid output a row of tiles at a time", async () => {
    const source = photo(4000, 3000);
    let avif: Uint8Array | undefined;
    const written = await roadsOf(async () => {
      avif = (await convert(await jpegOf(source, 90), "big.jpg", "avif")).bytes;
    });
    // Outputs past 1.5 MP are written as grids of tiles.
    expect(written.sinks).toEqual({ "avif-grid": 1 });
    const grid = avif as Uint8Array;
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(grid, "grid.avif", "png");
    });
    expect(taken).toEqual({ sources: { "avif-tiles": 1 }, sinks: { "png-rows": 1 } });
    const got = out as NonNullable<typeof out>;
    expect(sizeOf(got.bytes)).toEqual([4000, 3000]);
    // Tiles are upsampled each on its own (libavif joins them first): their edges may differ by a little more.
    expect(sampledDiff(await pixelsOf(grid), await pixelsOf(got.bytes))).toBeLessThan(1);
  });

  it("reads a grid with an alpha grid", async () => {
    const source = photo(2000, 1300, { alpha: true });
    const grid = (await convert(await pngOf(source), "glass.png", "avif")).bytes;
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(grid, "glass.avif", "png");
    });
    expect(taken.sources).toEqual({ "avif-tiles": 1 });
    const reference = await pixelsOf(grid);
    const back = await pixelsOf((out as NonNullable<typeof out>).bytes);
    expect(Array.from(back.data).some((v, i) => i % 4 === 3 && v < 128)).toBe(true);
    expect(sampledDiff(reference, back, [3])).toBeLessThan(1);
  });

  it("reads a 24 MP grid in a flat budget: only a row of tiles is ever decoded", async () => {
    // Flat halves encode fast; what matters is the size: one 24 MP frame would be charged 90 MB with its JPEG writer.
    const avif = (await convert(await jpegOf(halves(6000, 4000), 90), "big.jpg", "avif")).bytes;
    let out: Awaited<ReturnType<typeof convert>> | undefined;
    const taken = await roadsOf(async () => {
      out = await convert(avif, "big.avif", "jpg");
    });
    expect(taken).toEqual({ sources: { "avif-tiles": 1 }, sinks: { "jpeg-bands": 1 } });
    const px = await pixelsOf((out as NonNullable<typeof out>).bytes);
    expect([px.width, px.height]).toEqual([6000, 4000]);
    // Both sides of tile edges (a photo's 500 px tiles) and of the picture's halves.
    for (const [x, y, rgb] of [
      [0, 0, [255, 0, 0]],
      [499, 1000, [255, 0, 0]],
      [500, 1000, [255, 0, 0]],
      [1000, 499, [255, 0, 0]],
      [1000, 500, [255, 0, 0]],
      [2990, 3999, [255, 0, 0]],
      [3010, 2000, [0, 0, 255]],
      [5999, 3999, [0, 0, 255]],
    ] as const) {
      expect(near(rgbaAt(px, x, y), [...rgb, 255], 12), `${x},${y}: ${rgbaAt(px, x, y)}`).toBe(true);
    }
  });

  it("refuses past what the road allows, before decoding", async () => {
    const big = withIspe(await opaque, 8000, 6000);
    const res = await postForm("/api/v1/image/convert", { file: file(big, "huge.avif"), target_format: "png" });
    const body = await problem(res);
    expect([res.status, body.code]).toEqual([422, "image_too_large"]);
  });

  it("tells a damaged AV1 stream with a 422, not a 5xx", async () => {
    const avif = (await opaque).slice();
    // The container stays valid; the first OBUs (the sequence header) do not.
    const mdat = avif.findIndex((_, i) => avif[i] === 0x6d && avif[i + 1] === 0x64 && avif[i + 2] === 0x61 && avif[i + 3] === 0x74);
    for (let i = mdat + 4; i < mdat + 24; i++) avif[i] = 0xff;
    const res = await postForm("/api/v1/image/convert", { file: file(avif, "bad.avif"), target_format: "png" });
    const body = await problem(res);
    expect([res.status, body.code]).toEqual([422, "invalid_image"]);
  });
});
