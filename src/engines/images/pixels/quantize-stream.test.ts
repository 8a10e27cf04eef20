import { describe, expect, it } from "vitest";
import { pixelsSource, type BandSource } from "../memory/bands";
import { decodePng } from "../codecs/png";
import { contiguous } from "../../bytes";
import { PalettePngRowWriter, PngRowWriter, writePalettePng, writePng, type PngLayout } from "../codecs/png-writer";
import { PaletteBuilder, quantize, Remapper } from "./quantize";
import { quantizePngStreaming } from "./quantize-stream";
import type { Pixels } from "../types";
import { photo } from "../../../../test/support/images/fixtures";
import { concat } from "../util/bytes";

// The streamed quantiser and PNG writers against their whole-image forms: same
// palette, same indices, same bytes, whatever the band size.

/** Rows y0..y1 of a picture, copied (as a streaming reader would hand them out). */
const rowsOf = (px: Pixels, y0: number, y1: number): Pixels => ({
  data: px.data.slice(y0 * px.width * 4, y1 * px.width * 4),
  width: px.width,
  height: y1 - y0,
});

/** Bands of exactly `rows` rows (the last one shorter), each a fresh copy. */
function bandSource(px: Pixels, rows: number): BandSource & { passes: number } {
  const src = {
    width: px.width,
    height: px.height,
    passes: 0,
    async *bands() {
      src.passes++;
      for (let y = 0; y < px.height; y += rows) yield { y, pixels: rowsOf(px, y, Math.min(px.height, y + rows)) };
    },
  };
  return src;
}

/** Few distinct colours, some translucent and some fully transparent with differing RGB (all one colour to the palette). */
function fewColours(width: number, height: number): Pixels {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = (x * 7 + y * 3) % 11;
      const o = (y * width + x) * 4;
      data.set([(k * 53) & 255, (k * 97) & 255, (k * 31) & 255, k % 3 === 0 ? 0 : k % 3 === 1 ? 100 : 255], o);
      if (k % 3 === 0) data[o] = x & 255;
    }
  }
  return { data, width, height };
}

/** Palette and indices through PaletteBuilder + Remapper, `rows` rows at a time. */
function streamed(px: Pixels, rows: number, opts: { maxColors: number; quality: number; dither: boolean }, maxSamples?: number) {
  const builder = new PaletteBuilder(px.width, px.height, opts.maxColors, maxSamples);
  for (let y = 0; y < px.height; y += rows) builder.add(rowsOf(px, y, Math.min(px.height, y + rows)));
  const built = builder.build(opts);
  const remapper = new Remapper(px.width, built.colors, opts.dither, built.exact);
  const parts: Uint8Array[] = [];
  for (let y = 0; y < px.height; y += rows) parts.push(remapper.map(rowsOf(px, y, Math.min(px.height, y + rows))));
  return { ...built, indices: concat(parts) };
}

const PICTURES: [string, () => Pixels][] = [
  ["photo", () => photo(203, 157)],
  ["photo with alpha", () => photo(203, 157, { alpha: true })],
  ["few colours", () => fewColours(61, 47)],
];

describe("streamed palette quantisation", () => {
  for (const [name, make] of PICTURES) {
    it(`${name}: bands of any size give the whole-image palette and indices`, () => {
      const px = make();
      for (const dither of [true, false]) {
        const opts = { maxColors: 256, quality: 60, dither };
        const whole = quantize(px, opts);
        for (const rows of [1, 7, 64, px.height]) {
          const s = streamed(px, rows, opts);
          expect(s.exact, `${rows} rows`).toBe(name === "few colours");
          expect(s.colors, `${rows} rows, dither ${dither}`).toEqual(whole.colors);
          expect(s.indices, `${rows} rows, dither ${dither}`).toEqual(whole.indices);
        }
      }
    });
  }

  it("the exact palette gives way to median cut when a later band brings one colour too many", () => {
    const px = fewColours(61, 47); // 8 colours, the transparent ones counting as one
    px.data.set([1, 2, 3, 255], px.data.length - 4); // and a ninth in the very last pixel
    const opts = { maxColors: 8, quality: 80, dither: true };
    expect(streamed(fewColours(61, 47), 5, opts).exact).toBe(true);
    const whole = quantize(px, opts);
    const s = streamed(px, 5, opts);
    expect(s.exact).toBe(false);
    expect(s.colors).toEqual(whole.colors);
    expect(s.indices).toEqual(whole.indices);
    expect(whole.colors.length / 4).toBeLessThanOrEqual(8);
  });

  it("sampling of huge pictures is by image pixel index, not by band", () => {
    const px = photo(201, 157);
    const opts = { maxColors: 256, quality: 70, dither: true };
    // 1000 samples of 31557 pixels: every 31st pixel, which falls at a different column on every row.
    const whole = streamed(px, px.height, opts, 1000);
    for (const rows of [1, 10, 33]) {
      const s = streamed(px, rows, opts, 1000);
      expect(s.colors).toEqual(whole.colors);
      expect(s.indices).toEqual(whole.indices);
    }
    expect(whole.colors).not.toEqual(quantize(px, opts).colors);
  });

  it("refuses bands of the wrong width and a build before every row", () => {
    const px = photo(20, 10);
    const builder = new PaletteBuilder(20, 10, 256);
    expect(() => builder.add({ data: new Uint8Array(19 * 4), width: 19, height: 1 })).toThrow(/width/);
    builder.add(rowsOf(px, 0, 5));
    expect(() => builder.build({ quality: 50 })).toThrow(/100 of 200 pixels/);
  });
});

describe("streamed PNG writers", () => {
  it("PngRowWriter writes the bytes of writePng, in any layout and band size", async () => {
    const px = photo(83, 41, { alpha: true });
    for (const layout of ["grey", "grey-alpha", "rgb", "rgba"] as PngLayout[]) {
      const whole = writePng(px, layout);
      for (const rows of [1, 6, 41]) {
        const w = new PngRowWriter(px.width, px.height, layout);
        for (let y = 0; y < px.height; y += rows) await w.write(rowsOf(px, y, Math.min(px.height, y + rows)));
        expect(contiguous(await w.finish()), `${layout}, ${rows} rows`).toEqual(whole);
      }
    }
  });

  it("PngRowWriter refuses to finish early or take extra rows", async () => {
    const px = photo(10, 4);
    const w = new PngRowWriter(10, 4, "rgb");
    await w.write(rowsOf(px, 0, 3));
    await expect(w.finish()).rejects.toThrow(/3 of 4/);
    await expect(w.write(rowsOf(px, 0, 2))).rejects.toThrow(/more than 4/);
  });

  it("PalettePngRowWriter writes the bytes of writePalettePng, at every bit depth", () => {
    for (const [name, px, maxColors] of [
      ["photo 256", photo(77, 35, { alpha: true }), 256],
      ["photo 16", photo(77, 35), 16],
      ["photo 4", photo(77, 35, { alpha: true }), 4],
      ["photo 2", photo(77, 35), 2],
    ] as const) {
      const pal = quantize(px, { maxColors, quality: 50, dither: true });
      const whole = writePalettePng(px.width, px.height, pal);
      for (const rows of [1, 4, 35]) {
        const w = new PalettePngRowWriter(px.width, px.height, pal.colors);
        for (let y = 0; y < px.height; y += rows) {
          const h = Math.min(rows, px.height - y);
          w.writeIndices(pal.indices.subarray(y * px.width, (y + h) * px.width), h);
        }
        expect(w.finish(), `${name}, ${rows} rows`).toEqual(whole);
      }
    }
  });
});

describe("PNG zlib streams", () => {
  // Over 4 MB of filtered rows, the writers stream: a stored 32 KB prefix primes
  // fflate's Deflate (whose first 32 KB could otherwise point into its zeroed
  // window, fflate issue #260). Both roads must decode exactly.
  it("true colour, small (one zlib call) and big (streamed), decodes to the input", async () => {
    for (const [w, h] of [
      [203, 157],
      [1100, 960],
    ]) {
      const px = photo(w, h, { alpha: true });
      const out = await decodePng(writePng(px, "rgba"));
      expect([out.width, out.height]).toEqual([w, h]);
      expect(Buffer.compare(Buffer.from(out.data), Buffer.from(px.data)), `${w}x${h}`).toBe(0);
    }
  });

  it("palette, big (streamed), decodes to the palette's colours", async () => {
    const [w, h] = [4200, 1001];
    const colors = new Uint8Array(256 * 4);
    for (let i = 0; i < 256; i++) colors.set([i, 255 - i, (i * 7) & 255, i < 8 ? i * 30 : 255], i * 4);
    const indices = new Uint8Array(w * h);
    for (let i = 0; i < indices.length; i++) indices[i] = (i % w) % 97 === 0 ? 0 : ((i * 2654435761) >>> 24) & (i % 3 === 0 ? 255 : 7);
    const writer = new PalettePngRowWriter(w, h, colors);
    for (let y = 0; y < h; y += 100) writer.writeIndices(indices.subarray(y * w, Math.min(h, y + 100) * w), Math.min(100, h - y));
    const png = writer.finish();
    expect(png).toEqual(writePalettePng(w, h, { colors, indices }));
    const out = await decodePng(png);
    const want = new Uint8Array(w * h * 4);
    for (let i = 0; i < indices.length; i++) want.set(colors.subarray(indices[i] * 4, indices[i] * 4 + 4), i * 4);
    expect(Buffer.compare(Buffer.from(out.data), Buffer.from(want))).toBe(0);
  });
});

describe("quantizePngStreaming", () => {
  for (const [name, make] of PICTURES) {
    it(`${name}: gives the whole-image PNG, which decodes to the palette's colours`, async () => {
      const px = make();
      const pal = quantize(px, { maxColors: 256, quality: 75, dither: true });
      const whole = writePalettePng(px.width, px.height, pal);
      const source = bandSource(px, 13); // 13 does not divide 157 or 47
      const png = await quantizePngStreaming(source, 75);
      expect(source.passes).toBe(2);
      expect(png).toEqual(whole);
      expect(await quantizePngStreaming(pixelsSource(px), 75)).toEqual(whole);
      expect(await quantizePngStreaming(pixelsSource(px), 75, px.width * 10)).toEqual(whole);

      const out = await decodePng(png);
      expect([out.width, out.height]).toEqual([px.width, px.height]);
      for (let i = 0; i < px.width * px.height; i++) {
        const c = pal.indices[i] * 4;
        const got = Array.from(out.data.subarray(i * 4, i * 4 + 4));
        const want = Array.from(pal.colors.subarray(c, c + 4));
        if (got.join() !== want.join()) expect(got, `pixel ${i}`).toEqual(want);
      }
    });
  }

  it("refuses a source whose bands skip rows", async () => {
    const px = photo(16, 16);
    const bad: BandSource = {
      width: 16,
      height: 16,
      async *bands() {
        yield { y: 0, pixels: rowsOf(px, 0, 8) };
        yield { y: 9, pixels: rowsOf(px, 9, 16) };
      },
    };
    await expect(quantizePngStreaming(bad, 60)).rejects.toThrow(/row 9, expected 8/);
  });
});
