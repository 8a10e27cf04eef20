import { beforeAll, describe, expect, it } from "vitest";
import { encodeJpegFromRows } from "../../../src/engines/images";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { decodeWebp } from "../../../src/engines/images/codecs/webp";
import { writePng } from "../../../src/engines/images/codecs/png-writer";
import { JpegBandSource } from "../../../src/engines/images/jpeg/band-source";
import { parseJpeg } from "../../../src/engines/images/jpeg/markers";
import type { BandSource } from "../../../src/engines/images/memory/bands";
import { imageRoadsTaken } from "../../../src/engines/images/memory/roads-taken";
import { PngBandSource } from "../../../src/engines/images/png/band-source";
import { applyOrientation, rowPlacement } from "../../../src/engines/images/pixels/orientation";
import type { Pixels } from "../../../src/engines/images/types";
import { WebpBandSource } from "../../../src/engines/images/webp/band-source";
import { WEBP_BAND_HEAP_CAP } from "../../../src/engines/images/webp/band-writer";
import { webpBandProbe } from "../../../src/engines/images/webp/probe";
import { file, photo, webpOf, withOrientation } from "../../support/images/fixtures";
import { pixelsOf } from "../../support/images/pixels";
import { fails, ok } from "./client";
import { formatOf, sizeOf } from "./inspect";
import { runtimeReport } from "../../support/runtime";

// Issue #10: WebP at phone size. Lossy WebP is written from YUV planes filled
// band by band (webp/band-writer.ts) and read a few macroblock rows at a time
// (webp/band-source.ts), so a 24 MP photo never exists whole as RGBA. Every
// call below asserts the road it took (local workerd never fails on memory,
// so an output check alone passes on any road) and the isolate's WASM peak.
// Big outputs are read back with band readers only: a whole decode in this
// isolate (the Worker's) would itself pass the budget.

const W = 6000;
const H = 4000;
const MiB = 1024 * 1024;

interface Runtime {
  wasm_peak: number;
  budget: number;
}
async function runtime(): Promise<Runtime> {
  return runtimeReport<Runtime>();
}

/** The roads taken by the calls `run` makes, as counts. */
async function roadsOf<T>(run: () => Promise<T>): Promise<{ result: T; sources: Record<string, number>; sinks: Record<string, number> }> {
  const before = imageRoadsTaken();
  const result = await run();
  const after = imageRoadsTaken();
  const diff = (a: Partial<Record<string, number>>, b: Partial<Record<string, number>>) =>
    Object.fromEntries(Object.entries(b).flatMap(([k, v]) => ((v ?? 0) - (a[k] ?? 0) > 0 ? [[k, (v ?? 0) - (a[k] ?? 0)]] : [])));
  return { result, sources: diff(before.sources, after.sources), sinks: diff(before.sinks, after.sinks) };
}

async function peakWithinBudget(): Promise<void> {
  const r = await runtime();
  console.log(
    `isolate WASM peak ${(r.wasm_peak / MiB).toFixed(1)} MiB (budget ${(r.budget / MiB).toFixed(0)}); our largest heap ${(webpBandProbe.largestHeap / MiB).toFixed(1)} MiB`,
  );
  expect(r.wasm_peak, `WASM peak ${(r.wasm_peak / MiB).toFixed(1)} MiB`).toBeLessThanOrEqual(r.budget);
}

/**
 * PSNR of RGB between a band source's upright rows and `reference` seen
 * through `orientation` (the reference is in stored order).
 */
async function psnr(source: BandSource, reference: Pixels, orientation: number): Promise<number> {
  const { width: rw, height: rh } = reference;
  // Upright index -> reference index, built once (Int32: 96 MB would not do for a map of 24 MP... 24M x 4 B is fine here).
  const from = new Int32Array(rw * rh);
  for (let y = 0; y < rh; y++) {
    const { base, step } = rowPlacement(orientation, rw, rh, y);
    for (let x = 0, i = base; x < rw; x++, i += step) from[i] = y * rw + x;
  }
  let se = 0;
  let n = 0;
  for await (const band of source.bands(1 << 19)) {
    const d = band.pixels.data;
    const first = band.y * source.width;
    for (let p = 0; p < band.pixels.width * band.pixels.height; p++) {
      const r = from[first + p] * 4;
      for (let c = 0; c < 3; c++) {
        const e = d[p * 4 + c] - reference.data[r + c];
        se += e * e;
      }
      n += 3;
    }
  }
  expect(n).toBe(rw * rh * 3);
  return 10 * Math.log10((255 * 255) / (se / n));
}

/** Rows of two sources compared one by one; answers the largest difference of any channel. */
async function maxDifference(a: BandSource, b: BandSource): Promise<number> {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  const rowBytes = a.width * 4;
  const rows = async function* (s: BandSource) {
    for await (const band of s.bands(1 << 19)) {
      for (let y = 0; y < band.pixels.height; y++) yield band.pixels.data.subarray(y * rowBytes, (y + 1) * rowBytes);
    }
  };
  const ib = rows(b);
  let worst = 0;
  let count = 0;
  for await (const ra of rows(a)) {
    const rb = (await ib.next()).value as Uint8Array;
    for (let i = 0; i < rowBytes; i++) worst = Math.max(worst, Math.abs(ra[i] - rb[i]));
    count++;
  }
  expect(count).toBe(a.height);
  return worst;
}

const webpSource = (b: Uint8Array) => {
  const [w, h] = sizeOf(b);
  return new WebpBandSource(b, w, h);
};
const chunkTypes = (b: Uint8Array): string[] => {
  const out: string[] = [];
  for (let at = 12; at + 8 <= b.length; ) {
    const len = b[at + 4] | (b[at + 5] << 8) | (b[at + 6] << 16) | (b[at + 7] << 24);
    out.push(String.fromCharCode(...b.subarray(at, at + 4)));
    at += 8 + len + (len & 1);
  }
  return out;
};

describe("WebP at phone size, in bands", () => {
  // 24 MP shot in landscape by a phone held upright: stored 6000 x 4000, EXIF orientation 6.
  const source = photo(W, H);
  let phoneJpeg: Uint8Array;
  let webp24: Uint8Array;

  beforeAll(async () => {
    const rows = (y0: number, y1: number) => ({ data: source.data.subarray(y0 * W * 4, y1 * W * 4), width: W, height: y1 - y0 });
    phoneJpeg = withOrientation(await encodeJpegFromRows(W, H, 90, rows), 6);
  }, 120_000);

  it("converts a 24 MP orientation-6 JPEG to WebP from its own YCbCr, upright, within the budget", async () => {
    const written = webpBandProbe.planeWrites;
    const ycbcr = webpBandProbe.ycbcrWrites;
    const {
      result: out,
      sources,
      sinks,
    } = await roadsOf(() => ok("/api/v1/image/convert", { file: file(phoneJpeg, "phone.jpg"), target_format: "webp", quality: "75" }));
    expect(sources).toEqual({ "jpeg-bands": 1 });
    expect(sinks).toEqual({ "webp-planes": 1 });
    expect(webpBandProbe.planeWrites).toBe(written + 1);
    expect(webpBandProbe.ycbcrWrites).toBe(ycbcr + 1);
    await peakWithinBudget();
    // Our instance's own heap: the planes (36 MB) and libwebp's encoder, under the heap cap build.sh sets.
    expect(webpBandProbe.largestHeap).toBeGreaterThan(36 * MiB);
    expect(webpBandProbe.largestHeap).toBeLessThanOrEqual(WEBP_BAND_HEAP_CAP);
    expect(formatOf(out.bytes)).toBe("webp");
    expect(sizeOf(out.bytes)).toEqual([H, W]);
    expect(out.meta.width).toBe(H);
    // Turned while the planes were filled: compared with the source turned by orientation 6.
    expect(await psnr(webpSource(out.bytes), source, 6)).toBeGreaterThan(32);
    webp24 = out.bytes;
  }, 240_000);

  it("converts the 24 MP WebP to JPEG, read in bands", async () => {
    const {
      result: out,
      sources,
      sinks,
    } = await roadsOf(() => ok("/api/v1/image/convert", { file: file(webp24, "big.webp"), target_format: "jpg", quality: "90" }));
    expect(sources).toEqual({ "webp-bands": 1 });
    expect(sinks).toEqual({ "jpeg-bands": 1 });
    await peakWithinBudget();
    expect(formatOf(out.bytes)).toBe("jpeg");
    expect(sizeOf(out.bytes)).toEqual([H, W]);
    expect(await psnr(new JpegBandSource(out.bytes, parseJpeg(out.bytes)), source, 6)).toBeGreaterThan(31);
  }, 240_000);

  it("converts the 24 MP WebP to PNG: exactly the WebP's pixels", async () => {
    const { result: out, sources, sinks } = await roadsOf(() => ok("/api/v1/image/convert", { file: file(webp24, "big.webp"), target_format: "png" }));
    expect(sources).toEqual({ "webp-bands": 1 });
    expect(sinks).toEqual({ "png-rows": 1 });
    await peakWithinBudget();
    expect(formatOf(out.bytes)).toBe("png");
    expect(await maxDifference(new PngBandSource(out.bytes), webpSource(webp24))).toBe(0);
  }, 240_000);

  it("resizes the 24 MP WebP to 2000 px wide WebP", async () => {
    const {
      result: out,
      sources,
      sinks,
    } = await roadsOf(() => ok("/api/v1/image/resize", { file: file(webp24, "big.webp"), width: "2000", target_format: "webp", quality: "80" }));
    expect(sources).toEqual({ "webp-bands": 1 });
    expect(sinks).toEqual({ "webp-planes": 1 });
    await peakWithinBudget();
    expect(sizeOf(out.bytes)).toEqual([2000, 3000]);
    // 6 MP: small enough to check with libwebp's whole decoder (jSquash).
    const small = await pixelsOf(out.bytes);
    const at = (x: number, y: number) => Array.from(small.data.subarray((y * 2000 + x) * 4, (y * 2000 + x) * 4 + 3));
    // Orientation 6: the stored picture's top (green 0) is on the right, its left (red 0) at the top.
    expect(at(1990, 1500)[1]).toBeLessThan(30);
    expect(at(10, 1500)[1]).toBeGreaterThan(225);
    expect(at(1000, 2990)[0] - at(1000, 10)[0]).toBeGreaterThan(200);
  }, 240_000);

  it("compresses the 24 MP WebP as WebP, banded both ways, smaller", async () => {
    const { result: out, sources, sinks } = await roadsOf(() => ok("/api/v1/image/compress", { file: file(webp24, "big.webp"), quality: "50" }));
    expect(sources).toEqual({ "webp-bands": 1 });
    expect(sinks).toEqual({ "webp-planes": 1 });
    await peakWithinBudget();
    expect(formatOf(out.bytes)).toBe("webp");
    expect(sizeOf(out.bytes)).toEqual([H, W]);
    expect(out.bytes.length).toBeLessThan(webp24.length);
    expect(await psnr(webpSource(out.bytes), source, 6)).toBeGreaterThan(30);
  }, 240_000);

  it("answers 422 invalid_image for the 24 MP WebP cut in half, nothing charged", async () => {
    const cut = webp24.subarray(0, Math.floor(webp24.length / 2));
    expect(await fails("/api/v1/image/convert", { file: file(cut, "cut.webp"), target_format: "png" }, 422)).toBe("invalid_image");
  }, 60_000);
});

describe("WebP band codec against libwebp's whole-picture codec", () => {
  it("reads a lossy WebP with alpha exactly as libwebp's own decoder does", async () => {
    const px = photo(1203, 801, { alpha: true });
    const webp = await webpOf(px, 80);
    expect(chunkTypes(webp)).toContain("ALPH");
    const whole = await decodeWebp(webp);
    let worst = 0;
    for await (const band of webpSource(webp).bands(100_000)) {
      const d = band.pixels.data;
      const at = band.y * px.width * 4;
      for (let i = 0; i < d.length; i++) worst = Math.max(worst, Math.abs(d[i] - whole.data[at + i]));
    }
    expect(worst).toBe(0);
  });

  it("writes a 3 MP PNG with alpha to WebP from planes: alpha kept exactly", async () => {
    const px = photo(2000, 1500, { alpha: true });
    const { result: out, sinks } = await roadsOf(() =>
      ok("/api/v1/image/convert", { file: file(writePng(px), "alpha.png"), target_format: "webp", quality: "80" }),
    );
    expect(sinks).toEqual({ "webp-planes": 1 });
    expect(chunkTypes(out.bytes)).toContain("ALPH");
    const back = await pixelsOf(out.bytes);
    let alphaOff = 0;
    let se = 0;
    let n = 0;
    for (let i = 0; i < px.data.length; i += 4) {
      if (back.data[i + 3] !== px.data[i + 3]) alphaOff++;
      if (px.data[i + 3] === 255) {
        for (let c = 0; c < 3; c++) se += (back.data[i + c] - px.data[i + c]) ** 2;
        n += 3;
      }
    }
    expect(alphaOff).toBe(0);
    expect(10 * Math.log10((255 * 255) / (se / n))).toBeGreaterThan(32);
  }, 60_000);

  it("writes a 5.2 MP RGBA PNG whose alpha is all opaque without an alpha plane or a size limit", async () => {
    const px = photo(2600, 2000);
    const { result: out, sinks } = await roadsOf(() =>
      ok("/api/v1/image/convert", { file: file(writePng(px, "rgba"), "opaque.png"), target_format: "webp", quality: "80" }),
    );
    expect(sinks).toEqual({ "webp-planes": 1 });
    expect(chunkTypes(out.bytes)).not.toContain("ALPH");
    expect(sizeOf(out.bytes)).toEqual([2600, 2000]);
  }, 60_000);

  // Transparency past 3 MP (written since our own alpha coder): webp-lossless.test.ts.
});

/** PSNR of RGB between decoded pixels and the expected upright ones. */
function rgbPsnr(back: Pixels, expected: Pixels): number {
  expect([back.width, back.height]).toEqual([expected.width, expected.height]);
  let se = 0;
  for (let i = 0; i < back.data.length; i += 4) for (let c = 0; c < 3; c++) se += (back.data[i + c] - expected.data[i + c]) ** 2;
  return 10 * Math.log10((255 * 255) / (se / ((back.data.length / 4) * 3)));
}

/** The file's sampling factors, luma then chroma: "2x2,1x1,1x1" is 4:2:0. */
function samplingOf(jpeg: Uint8Array): string {
  return (parseJpeg(jpeg).frame?.components ?? []).map((c) => `${c.h}x${c.v}`).join(",");
}

const as420 = (px: Pixels) => encodeJpeg(px, 85, { fixedSubsampling: true });
const always = () => true;

describe.each([
  // As phones write them. Even sides: every orientation keeps the chroma grid, so none needs RGB.
  ["4:2:0", "2x2,1x1,1x1", 1600, 1400, as420, always],
  // As many cameras write them, and MozJPEG below quality 90 by its own choice.
  ["4:2:2", "2x1,1x1,1x1", 1600, 1400, (px: Pixels) => encodeJpeg(px, 85), always],
  // Odd sides: a lone last line (row or column) and chroma blocks cut in half
  // at the edges. Flipped, the JPEG's chroma would fall half a sample off
  // WebP's, so those take RGB rows; upright, the JPEG's own YCbCr.
  ["4:2:0 odd-sided", "2x2,1x1,1x1", 1501, 1499, as420, (orientation: number) => orientation === 1],
])("a %s JPEG's own YCbCr into the WebP planes", (_name, sampling, width, height, encode, takesYcbcr) => {
  const px = photo(width, height);
  let jpeg: Uint8Array;
  let fromRows: Pixels;
  beforeAll(async () => {
    jpeg = await encode(px);
    expect(samplingOf(jpeg)).toBe(sampling);
    // What libjpeg decodes the file to: the reference both roads are held to.
    fromRows = await pixelsOf(jpeg);
  }, 60_000);

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "orientation %i, placed while the planes are filled",
    async (orientation) => {
      const ycbcr = webpBandProbe.ycbcrWrites;
      const { result: out, sinks } = await roadsOf(() =>
        ok("/api/v1/image/convert", { file: file(withOrientation(jpeg, orientation), "o.jpg"), target_format: "webp", quality: "90" }),
      );
      expect(sinks).toEqual({ "webp-planes": 1 });
      expect(webpBandProbe.ycbcrWrites).toBe(ycbcr + (takesYcbcr(orientation) ? 1 : 0));
      expect(rgbPsnr(await pixelsOf(out.bytes), applyOrientation(fromRows, orientation))).toBeGreaterThan(32);
    },
    60_000,
  );

  it("is as faithful to the JPEG as the RGB road, at about the same size", async () => {
    // The RGB road on the same pixels: the JPEG's decode given as a PNG.
    const ycbcr = webpBandProbe.ycbcrWrites;
    const direct = await ok("/api/v1/image/convert", { file: file(jpeg, "p.jpg"), target_format: "webp", quality: "80" });
    expect(webpBandProbe.ycbcrWrites).toBe(ycbcr + 1);
    const viaRows = await ok("/api/v1/image/convert", { file: file(writePng(fromRows), "p.png"), target_format: "webp", quality: "80" });
    expect(webpBandProbe.ycbcrWrites).toBe(ycbcr + 1);
    const directPsnr = rgbPsnr(await pixelsOf(direct.bytes), fromRows);
    const rowsPsnr = rgbPsnr(await pixelsOf(viaRows.bytes), fromRows);
    console.log(`YCbCr road ${direct.bytes.length} B, ${directPsnr.toFixed(2)} dB; RGB road ${viaRows.bytes.length} B, ${rowsPsnr.toFixed(2)} dB`);
    expect(directPsnr).toBeGreaterThan(rowsPsnr - 0.5);
    expect(Math.abs(direct.bytes.length / viaRows.bytes.length - 1)).toBeLessThan(0.03);
  }, 60_000);

  it("answers a damaged file as the RGB road does: 422 invalid_image, nothing charged", async () => {
    const cut = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
    expect(await fails("/api/v1/image/convert", { file: file(cut, "cut.jpg"), target_format: "webp" }, 422)).toBe("invalid_image");
    expect(await fails("/api/v1/image/convert", { file: file(cut, "cut.jpg"), target_format: "png" }, 422)).toBe("invalid_image");
  }, 60_000);
});
