import { beforeAll, describe, expect, it } from "vitest";
import { decodeWebp, encodeWebp } from "../../../src/engines/images/codecs/webp";
import { writePng } from "../../../src/engines/images/codecs/png-writer";
import type { PixelBand } from "../../../src/engines/images/memory/bands";
import type { Pixels } from "../../../src/engines/images/types";
import { WebpBandSource } from "../../../src/engines/images/webp/band-source";
import { webpBandProbe } from "../../../src/engines/images/webp/probe";
import { postForm, problem } from "../../support/http";
import { file, photo } from "../../support/images/fixtures";
import { pixelsOf } from "../../support/images/pixels";
import { fails } from "./client";
import { formatOf, sizeOf } from "./inspect";
import { okOnRoads } from "./roads";

// Issue #10, the two WebP gaps left after lossy WebP went into bands:
// lossless (VP8L) input, read in bands with libwebp's decoder handing rows
// out as it finishes them (patched to keep a sliding window of ARGB pixels,
// what backward references can reach, instead of the whole picture), and
// WebP output with transparency, whose alpha plane our C side compresses
// straight into the ALPH chunk (wasm/webp-band/).
// The oracle for lossless pixels is libwebp's own whole decoder (jSquash):
// a lossless picture has one right answer, the one dwebp also gives. Big
// pictures are written here bit by bit (striped, below), so their pixels are
// known without a whole decode.

/** `data` (a VP8L bitstream) wrapped as a RIFF/WebP file of one VP8L chunk. */
function riffVp8l(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(20 + data.length + (data.length & 1));
  const view = new DataView(out.buffer);
  out.set([..."RIFF"].map((c) => c.charCodeAt(0)));
  view.setUint32(4, out.length - 8, true);
  out.set(
    [..."WEBPVP8L"].map((c) => c.charCodeAt(0)),
    8,
  );
  view.setUint32(16, data.length, true);
  out.set(data, 20);
  return out;
}

/** A RIFF/WebP holding one VP8L chunk whose header says `width` x `height`, then `body` bytes of (meaningless) data. */
function vp8lHeaderOnly(width: number, height: number, body: number): Uint8Array {
  const data = new Uint8Array(5 + body);
  const bits = (width - 1) | ((height - 1) << 14);
  data.set([0x2f, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, (bits >>> 24) & 0xff]);
  return riffVp8l(data);
}

/** Bits written least significant first, as VP8L reads them. */
class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private used = 0;
  put(value: number, bits: number): void {
    for (let i = 0; i < bits; i++) {
      this.acc |= ((value >>> i) & 1) << this.used;
      if (++this.used === 8) {
        this.bytes.push(this.acc);
        this.acc = 0;
        this.used = 0;
      }
    }
  }
  /** A prefix code's code, first bit first (VP8L reads codes bit by bit from the top). */
  code(code: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) this.put((code >>> i) & 1, 1);
  }
  finish(): Uint8Array {
    if (this.used) this.bytes.push(this.acc);
    return Uint8Array.from(this.bytes);
  }
}

/** A copy length or distance code value (1 and up) as VP8L's prefix symbol and extra bits. */
function prefixed(value: number): { symbol: number; bits: number; extra: number } {
  const d = value - 1;
  if (d < 4) return { symbol: d, bits: 0, extra: 0 };
  const high = 31 - Math.clz32(d);
  const second = (d >>> (high - 1)) & 1;
  return { symbol: 2 * high + second, bits: high - 1, extra: d & ((1 << (high - 1)) - 1) };
}

const STRIPE_GREENS = [0, 64, 128, 192, 255];

/**
 * A lossless WebP of vertical stripes, written bit by bit: every 400th row
 * literal (stripes 64 pixels wide, shifted by the row's rank), each other row
 * a copy of the row above, or, from the middle down, of the row `far` rows up
 * (a backward reference that many rows back: 170 rows of 6000 pixels is
 * 1,020,000 pixels, near VP8L's farthest, 1,048,456). `greenOf(x, y)` gives
 * the expected green; red 200, blue 50, opaque.
 */
function striped(width: number, height: number, far: number) {
  // Each row's kind, and the literal row its pixels come from.
  const isFar = (y: number) => y % 400 !== 0 && y >= height / 2 && y >= far;
  const literalOf = new Int32Array(height);
  for (let y = 0; y < height; y++) literalOf[y] = y % 400 === 0 ? y : literalOf[isFar(y) ? y - far : y - 1];
  const greenOf = (x: number, y: number) => STRIPE_GREENS[((x >> 6) + literalOf[y] / 400) % 5];
  const w = new BitWriter();
  w.put(0x2f, 8);
  w.put(width - 1, 14);
  w.put(height - 1, 14);
  w.put(0, 1); // alpha_is_used
  w.put(0, 3); // version
  w.put(0, 1); // no transform
  w.put(0, 1); // no colour cache
  w.put(0, 1); // one prefix code group
  // Green (280 symbols): the five stripe greens and three length symbols, 3 bits each,
  // sent through a code-length code of {0: "0", 3: "10", 18: "11"} (18: a run of 11 to 138 zeros).
  const lengthFull = prefixed(4096);
  const lengthRest = prefixed(width % 4096 || 4096);
  const greenSymbols = [...STRIPE_GREENS, 256, 256 + lengthRest.symbol, 256 + lengthFull.symbol];
  if (new Set(greenSymbols).size !== 8) throw new Error("stripe width: two length symbols coincide");
  const greenCode = new Map([...greenSymbols].sort((a, b) => a - b).map((sym, i) => [sym, i]));
  w.put(0, 1); // normal code
  w.put(6 - 4, 4); // code length code lengths for 17, 18, 0, 1, 2, 3
  for (const len of [0, 2, 1, 0, 0, 2]) w.put(len, 3);
  w.put(0, 1); // lengths for every symbol
  for (let sym = 0; sym < 280; ) {
    if (greenCode.has(sym)) {
      w.code(0b10, 2);
      sym++;
      continue;
    }
    let run = 0;
    while (sym + run < 280 && !greenCode.has(sym + run) && run < 138) run++;
    if (run >= 11) {
      w.code(0b11, 2);
      w.put(run - 11, 7);
    } else w.code(0, 1);
    sym += run >= 11 ? run : 1;
  }
  const single = (symbol: number) => {
    w.put(1, 1); // simple code
    w.put(0, 1); // one symbol
    w.put(1, 1); // 8 bits
    w.put(symbol, 8);
  };
  single(200); // red
  single(50); // blue
  single(255); // alpha
  // Distance: code 1 (the pixel above, as a short distance code) and the far one, 1 bit each.
  const above = prefixed(1);
  const farCode = prefixed(far * width + 120);
  w.put(1, 1);
  w.put(1, 1); // two symbols
  w.put(1, 1);
  w.put(above.symbol, 8);
  w.put(farCode.symbol, 8);
  const copy = (length: number, far: boolean) => {
    const l = prefixed(length);
    w.code(greenCode.get(256 + l.symbol) as number, 3);
    w.put(l.extra, l.bits);
    const d = far ? farCode : above;
    w.code(far ? 1 : 0, 1);
    w.put(d.extra, d.bits);
  };
  for (let y = 0; y < height; y++) {
    if (literalOf[y] === y) {
      for (let x = 0; x < width; x++) w.code(greenCode.get(greenOf(x, y)) as number, 3);
      continue;
    }
    for (let x = 0; x < width; x += 4096) copy(Math.min(4096, width - x), isFar(y));
  }
  const data = w.finish();
  return { bytes: riffVp8l(data), greenOf };
}

let stripes: ReturnType<typeof striped> | undefined;
/** 24 MP of stripes with copies 170 rows back, made once for the tests that share it. */
const phoneStripes = () => {
  stripes ??= striped(6000, 4000, 170);
  return stripes;
};

/** Rows of a band that differ from the striped picture's. */
function stripedRowsOff(band: PixelBand, greenOf: (x: number, y: number) => number): number {
  const { data, width, height } = band.pixels;
  let off = 0;
  for (let r = 0; r < height; r++) {
    const at = r * width * 4;
    for (let x = 0; x < width; x++) {
      const i = at + x * 4;
      if (data[i] !== 200 || data[i + 1] !== greenOf(x, band.y + r) || data[i + 2] !== 50 || data[i + 3] !== 255) {
        off++;
        break;
      }
    }
  }
  return off;
}

describe("lossless WebP input, in bands", () => {
  // 2.3 MP with three alpha levels: over STREAM_PIXELS, so the banded road;
  // its file (several MB) goes into the decoder a part at a time.
  const px = photo(1800, 1300, { alpha: true });
  let lossless: Uint8Array;
  let expected: Pixels;

  beforeAll(async () => {
    lossless = await encodeWebp(px, 25, true);
    expected = await decodeWebp(lossless);
  }, 60_000);

  it("converts to PNG with exactly libwebp's pixels, alpha included, on the lossless road", async () => {
    const reads = webpBandProbe.losslessReads;
    const { out, taken } = await okOnRoads("/api/v1/image/convert", { file: file(lossless, "lossless.webp"), target_format: "png" });
    expect(taken).toEqual({ sources: { "webp-lossless-bands": 1 }, sinks: { "png-rows": 1 } });
    expect(webpBandProbe.losslessReads).toBe(reads + 1);
    const bytes = out.bytes;
    expect(formatOf(bytes)).toBe("png");
    const back = await pixelsOf(bytes);
    expect([back.width, back.height]).toEqual([1800, 1300]);
    let differing = 0;
    for (let i = 0; i < back.data.length; i++) if (back.data[i] !== expected.data[i]) differing++;
    expect(differing).toBe(0);
  }, 60_000);

  it("hands out the same rows in bands of any height", async () => {
    const source = new WebpBandSource(lossless, 1800, 1300);
    expect(source.mayHaveAlpha).toBe(true);
    let y = 0;
    for await (const band of source.bands(50_000)) {
      expect(band.y).toBe(y);
      const at = y * 1800 * 4;
      expect(Buffer.compare(Buffer.from(band.pixels.data), Buffer.from(expected.data.subarray(at, at + band.pixels.data.length)))).toBe(0);
      y += band.pixels.height;
    }
    expect(y).toBe(1300);
  }, 60_000);

  it("answers 422 invalid_image for damaged data and a cut file, nothing charged", async () => {
    // Its prefix codes overwritten (damage later in the data may still decode, as garbage, with any decoder).
    const damaged = lossless.slice();
    damaged.fill(0xff, 40, 240);
    expect(await fails("/api/v1/image/convert", { file: file(damaged, "damaged.webp"), target_format: "png" }, 422)).toBe("invalid_image");
    // Cut in half with the RIFF and chunk sizes made to agree: the VP8L data ends early.
    const cut = lossless.slice(0, Math.floor(lossless.length / 2) & ~1);
    new DataView(cut.buffer).setUint32(4, cut.length - 8, true);
    new DataView(cut.buffer).setUint32(16, cut.length - 20, true);
    expect(await fails("/api/v1/image/convert", { file: file(cut, "cut.webp"), target_format: "png" }, 422)).toBe("invalid_image");
  }, 60_000);

  it("reads 24 MP row for row, with backward references a million pixels back", async () => {
    // 6000 x 4000 of stripes: the decoder's ARGB window (about 1.6 M pixels)
    // slides every half a million pixels, and copies reach 1,020,000 pixels back across it.
    const { bytes, greenOf } = phoneStripes();
    const largestBefore = webpBandProbe.largestHeap;
    webpBandProbe.largestHeap = 0;
    let y = 0;
    let off = 0;
    for await (const band of new WebpBandSource(bytes, 6000, 4000).bands()) {
      expect(band.y).toBe(y);
      off += stripedRowsOff(band, greenOf);
      y += band.pixels.height;
    }
    expect(y).toBe(4000);
    expect(off).toBe(0);
    // The heap: the file (a few KB here), the ARGB window, a band of RGBA rows, the prefix codes.
    expect(webpBandProbe.largestHeap).toBeLessThan(24 * 2 ** 20);
    webpBandProbe.largestHeap = Math.max(largestBefore, webpBandProbe.largestHeap);
  }, 60_000);

  it("converts a 24 MP lossless WebP to PNG over HTTP on the lossless road, exactly", async () => {
    // The stripes above, with copies 170 rows (1,020,000 pixels) back, through the whole call.
    const { bytes, greenOf } = phoneStripes();
    const reads = webpBandProbe.losslessReads;
    const { out, taken } = await okOnRoads("/api/v1/image/convert", { file: file(bytes, "stripes.webp"), target_format: "png" });
    expect(taken).toEqual({ sources: { "webp-lossless-bands": 1 }, sinks: { "png-rows": 1 } });
    expect(webpBandProbe.losslessReads).toBe(reads + 1);
    const png = out.bytes;
    expect(formatOf(png)).toBe("png");
    const back = await pixelsOf(png);
    expect([back.width, back.height]).toEqual([6000, 4000]);
    expect(stripedRowsOff({ y: 0, pixels: back }, greenOf)).toBe(0);
  }, 60_000);

  it("refuses a 24 MP lossless WebP to BMP with 422 image_too_large naming the size that fits", async () => {
    // BMP is written whole (3 bytes a pixel): the one output a 24 MP lossless WebP does not reach.
    const res = await postForm("/api/v1/image/convert", { file: file(vp8lHeaderOnly(6000, 4000, 64), "big.webp"), target_format: "bmp" });
    const body = await problem(res);
    expect(res.status).toBe(422);
    expect(body.code).toBe("image_too_large");
    const largest = Number(/about (\d+\.\d) MP/.exec(JSON.stringify(body))?.[1]);
    expect(largest).toBeGreaterThan(12);
    expect(largest).toBeLessThan(24);
  }, 30_000);
});

describe("WebP output with transparency, from planes", () => {
  it("writes a 5.2 MP PNG with alpha: alpha exact, colours close, an ALPH chunk", async () => {
    const px = photo(2600, 2000, { alpha: true });
    const writes = webpBandProbe.planeWrites;
    const { out, taken } = await okOnRoads("/api/v1/image/convert", { file: file(writePng(px), "alpha.png"), target_format: "webp", quality: "75" });
    expect(taken.sinks).toEqual({ "webp-planes": 1 });
    expect(webpBandProbe.planeWrites).toBe(writes + 1);
    const bytes = out.bytes;
    expect(formatOf(bytes)).toBe("webp");
    expect(sizeOf(bytes)).toEqual([2600, 2000]);
    // Read back in bands (libwebp decodes the ALPH chunk; the VP8 frame a few rows at a time).
    let alphaOff = 0;
    let se = 0;
    let n = 0;
    for await (const band of new WebpBandSource(bytes, 2600, 2000).bands()) {
      const d = band.pixels.data;
      const at = band.y * 2600 * 4;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] !== px.data[at + i + 3]) alphaOff++;
        if (px.data[at + i + 3] === 255) {
          for (let c = 0; c < 3; c++) se += (d[i + c] - px.data[at + i + c]) ** 2;
          n += 3;
        }
      }
    }
    expect(alphaOff).toBe(0);
    expect(10 * Math.log10((255 * 255) / (se / n))).toBeGreaterThan(32);
  }, 60_000);

  it("refuses transparency past 20 MP with 422 image_too_large naming the limit", async () => {
    // 20.2 MP, half translucent everywhere: refused at the first band, before any encoding.
    const width = 5500;
    const height = 3680;
    const data = new Uint8Array(width * height * 4).fill(128);
    const res = await postForm("/api/v1/image/convert", { file: file(writePng({ data, width, height }), "wide.png"), target_format: "webp" });
    const body = await problem(res);
    expect(res.status).toBe(422);
    expect(body.code).toBe("image_too_large");
    expect(JSON.stringify(body)).toContain("up to 20 megapixels");
  }, 60_000);
});
