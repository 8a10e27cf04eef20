import { zlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { decodePng } from "../codecs/png";
import { EngineError } from "../../errors";
import { ADAM7, PngBandSource } from "./band-source";
import { corpusFile, corpusManifest, itWithCorpus } from "../../../../test/support/corpus";
import { concat } from "../util/bytes";
import { crc32 } from "../util/crc32";
import { heapReport } from "../../heap";

// PngBandSource (streaming PNG decode) against decodePng, the whole-image
// decoder it replaces for big files: every colour type and bit depth, Adam7,
// tRNS, all five filters, IDAT split anywhere, band sizes, the corpus PNGs,
// and the same accept/refuse outcome on damaged files.

// A raw PNG writer for tests: every colour type / bit depth, chosen filters,
// Adam7, tRNS, and IDAT split at chosen sizes.

function chunk(type: string, data: Uint8Array, badCrc = false): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, (crc32(out.subarray(4, 8 + data.length)) ^ (badCrc ? 1 : 0)) >>> 0);
  return out;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

interface RawPng {
  width: number;
  height: number;
  colorType: 0 | 2 | 3 | 4 | 6;
  bitDepth: 1 | 2 | 4 | 8 | 16;
  /** Samples, row-major, CHANNELS per pixel, each < 2^bitDepth (palette indices for type 3). */
  samples: Uint16Array;
  interlace?: boolean;
  palette?: Uint8Array;
  trns?: Uint8Array;
  /** Filter type of row i is filters[i % filters.length] (default: 0..4 cycling). */
  filters?: number[];
  /** Sizes of successive IDAT chunks (cycled); default one chunk. */
  idatSizes?: number[];
  /** Chunks to insert right before the first IDAT. */
  extra?: Uint8Array[];
  zlibLevel?: number;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a),
    pb = Math.abs(p - b),
    pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Packed scanline bytes of pixels (x0, x0+dx, ...) of row y. */
function packRow(p: RawPng, y: number, x0: number, dx: number): Uint8Array {
  const ch = CHANNELS[p.colorType];
  const n = Math.ceil((p.width - x0) / dx);
  const bits = p.bitDepth * ch;
  const row = new Uint8Array(Math.ceil((n * bits) / 8));
  let bit = 0;
  for (let i = 0; i < n; i++) {
    const x = x0 + i * dx;
    for (let c = 0; c < ch; c++) {
      const v = p.samples[(y * p.width + x) * ch + c];
      if (p.bitDepth === 16) {
        row[bit >> 3] = v >> 8;
        row[(bit >> 3) + 1] = v & 255;
      } else if (p.bitDepth === 8) row[bit >> 3] = v;
      else row[bit >> 3] |= v << (8 - p.bitDepth - (bit & 7));
      bit += p.bitDepth;
    }
  }
  return row;
}

function rawImageData(p: RawPng): Uint8Array {
  const bpp = Math.max(1, (CHANNELS[p.colorType] * p.bitDepth) >> 3);
  const filters = p.filters ?? [0, 1, 2, 3, 4];
  const rows: Uint8Array[] = [];
  let k = 0;
  const passes = p.interlace ? ADAM7 : [[0, 0, 1, 1]];
  for (const [x0, y0, dx, dy] of passes) {
    if (x0 >= p.width) continue;
    let prev: Uint8Array | null = null;
    for (let y = y0; y < p.height; y += dy) {
      const raw = packRow(p, y, x0, dx);
      const f = filters[k++ % filters.length];
      const out = new Uint8Array(raw.length + 1);
      out[0] = f;
      for (let i = 0; i < raw.length; i++) {
        const a = i >= bpp ? raw[i - bpp] : 0;
        const b = prev ? prev[i] : 0;
        const c = prev && i >= bpp ? prev[i - bpp] : 0;
        const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
        out[i + 1] = (raw[i] - pred) & 255;
      }
      rows.push(out);
      prev = raw;
    }
  }
  return concat(rows);
}

function ihdr(width: number, height: number, bitDepth: number, colorType: number, interlace = false): Uint8Array {
  const h = new Uint8Array(13);
  const dv = new DataView(h.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  h[8] = bitDepth;
  h[9] = colorType;
  h[12] = interlace ? 1 : 0;
  return chunk("IHDR", h);
}

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function idatChunks(z: Uint8Array, sizes: number[] = [z.length]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let k = 0;
  for (let o = 0; o < z.length; ) {
    const n = Math.max(1, sizes[k++ % sizes.length]);
    out.push(chunk("IDAT", z.subarray(o, o + n)));
    o += n;
  }
  return out;
}

function buildPng(p: RawPng): Uint8Array {
  const z = zlibSync(rawImageData(p), { level: (p.zlibLevel ?? 6) as 6 });
  const parts = [SIGNATURE, ihdr(p.width, p.height, p.bitDepth, p.colorType, p.interlace)];
  if (p.palette) parts.push(chunk("PLTE", p.palette));
  if (p.trns) parts.push(chunk("tRNS", p.trns));
  if (p.extra) parts.push(...p.extra);
  parts.push(...idatChunks(z, p.idatSizes));
  parts.push(chunk("IEND", new Uint8Array(0)));
  return concat(parts);
}

/** Deterministic samples: a mix of gradients and noise that hits every value. */
function sampleData(width: number, height: number, channels: number, bitDepth: number, seed = 1): Uint16Array {
  const max = (1 << bitDepth) - 1;
  const s = new Uint16Array(width * height * channels);
  let r = seed;
  for (let i = 0; i < s.length; i++) {
    r = (Math.imul(r, 1103515245) + 12345) & 0x7fffffff;
    const px = Math.floor(i / channels);
    const x = px % width,
      y = Math.floor(px / width);
    s[i] = (i % 3 === 0 ? (r >> 8) & max : ((x * 7 + y * 13 + (i % channels) * 50) * (max + 1)) / (width * 7 + height * 13 + 200)) & max;
  }
  return s;
}

// ---------------------------------------------------------------------------

interface Collected {
  data: Uint8Array;
  /** [y, height] of each band, in order. */
  bands: [number, number][];
}

async function collect(src: PngBandSource, targetPixels?: number): Promise<Collected> {
  const data = new Uint8Array(src.width * src.height * 4);
  const bands: [number, number][] = [];
  for await (const band of src.bands(targetPixels)) {
    expect(band.pixels.width).toBe(src.width);
    expect(band.pixels.data.length).toBe(band.pixels.width * band.pixels.height * 4);
    data.set(band.pixels.data, band.y * src.width * 4);
    bands.push([band.y, band.pixels.height]);
  }
  return { data, bands };
}

/** First differing pixel, as a readable string, or null when equal. */
function firstDiff(a: Uint8Array | Uint8ClampedArray, b: Uint8Array | Uint8ClampedArray, width: number): string | null {
  if (a.length !== b.length) return `lengths ${a.length} vs ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      const px = i >> 2;
      return `pixel (${px % width}, ${Math.floor(px / width)}): ${Array.from(a.subarray(px * 4, px * 4 + 4))} vs ${Array.from(b.subarray(px * 4, px * 4 + 4))}`;
    }
  }
  return null;
}

/** Decodes with both and checks equal pixels, band coverage for each target, and a second iteration. */
async function expectSameAsDecodePng(bytes: Uint8Array, targets: (number | undefined)[] = [undefined, 1, 97, 1e9]): Promise<PngBandSource> {
  const ref = await decodePng(bytes);
  const src = new PngBandSource(bytes);
  expect([src.width, src.height]).toEqual([ref.width, ref.height]);
  for (const target of targets) {
    const got = await collect(src, target);
    expect(firstDiff(got.data, ref.data, ref.width), `targetPixels ${target}`).toBeNull();
    // Rows in order, each once; bands of about targetPixels (at least one row).
    let next = 0;
    const rows = Math.max(1, Math.floor((target ?? 1 << 20) / src.width));
    for (const [y, h] of got.bands) {
      expect(y).toBe(next);
      expect(h).toBeGreaterThanOrEqual(1);
      expect(h).toBe(Math.min(rows, src.height - y));
      next += h;
    }
    expect(next).toBe(src.height);
  }
  return src;
}

/** decodePng's verdict and ours agree; both accept -> same pixels. */
async function expectSameOutcome(name: string, bytes: Uint8Array): Promise<"ok" | "corrupt"> {
  let ref: Uint8Array | Uint8ClampedArray | null = null;
  try {
    ref = (await decodePng(bytes)).data;
  } catch (err) {
    expect(err, name).toBeInstanceOf(EngineError);
  }
  let got: Uint8Array | null = null;
  let error: unknown = null;
  try {
    const src = new PngBandSource(bytes);
    got = (await collect(src, 7)).data;
  } catch (err) {
    error = err;
  }
  if (ref) {
    expect(error, `${name}: decodePng accepts it`).toBeNull();
    expect(firstDiff(got!, ref, 1), name).toBeNull();
    return "ok";
  }
  expect(error, `${name}: decodePng refuses it`).toBeInstanceOf(EngineError);
  expect((error as EngineError).kind, name).toBe("corrupt");
  expect((error as EngineError).message, name).toMatch(/^The PNG could not be decoded: .+\.$/);
  return "corrupt";
}

const COMBOS: [0 | 2 | 3 | 4 | 6, 1 | 2 | 4 | 8 | 16][] = [
  [0, 1],
  [0, 2],
  [0, 4],
  [0, 8],
  [0, 16],
  [2, 8],
  [2, 16],
  [3, 1],
  [3, 2],
  [3, 4],
  [3, 8],
  [4, 8],
  [4, 16],
  [6, 8],
  [6, 16],
];

/** A test image of the given format; palettes are short so some indices fall past them. */
function testPng(
  ct: 0 | 2 | 3 | 4 | 6,
  d: 1 | 2 | 4 | 8 | 16,
  opts: { width?: number; height?: number; interlace?: boolean; trns?: boolean; filters?: number[]; idatSizes?: number[] } = {},
): Uint8Array {
  const width = opts.width ?? 37,
    height = opts.height ?? 23;
  const ch = CHANNELS[ct];
  const p: RawPng = {
    width,
    height,
    colorType: ct,
    bitDepth: d,
    samples: sampleData(width, height, ch, d, width * 7 + ct * 3 + d),
    interlace: opts.interlace,
    filters: opts.filters,
    idatSizes: opts.idatSizes ?? [7, 1, 30, 113],
  };
  if (ct === 3) {
    const entries = Math.max(1, Math.min(1 << d, 200) - 1);
    p.palette = new Uint8Array(entries * 3).map((_, i) => (i * 37 + 11) & 255);
    if (opts.trns) p.trns = new Uint8Array(Math.max(1, entries - 1)).map((_, i) => (i * 91) & 255);
  } else if (opts.trns) {
    // The key is the first pixel's colour, so it matches somewhere.
    const first = Array.from(p.samples.subarray(0, ch));
    p.trns = new Uint8Array(ch === 1 ? 2 : 6);
    for (let c = 0; c < ch; c++) {
      p.trns[c * 2] = d === 16 ? first[c] >> 8 : 0;
      p.trns[c * 2 + 1] = first[c] & 255;
    }
  }
  return buildPng(p);
}

describe("PngBandSource: pixels identical to decodePng", () => {
  for (const [ct, d] of COMBOS) {
    for (const interlace of [false, true]) {
      for (const trns of ct === 4 || ct === 6 ? [false] : [false, true]) {
        it(`colour type ${ct}, ${d}-bit${interlace ? ", Adam7" : ""}${trns ? ", tRNS" : ""}`, async () => {
          const bytes = testPng(ct, d, { interlace, trns });
          const src = await expectSameAsDecodePng(bytes);
          expect(src.interlaced).toBe(interlace);
          expect(src.bitDepth).toBe(d);
          expect(src.colorType).toBe(ct);
          // The tRNS key is met: some pixel is transparent.
          if (trns && ct !== 3) expect((await collect(src)).data[3]).toBe(0);
          // Odd sizes: 1x1, narrower than a byte of samples, narrower than Adam7's first pass.
          for (const [w, h] of [
            [1, 1],
            [3, 5],
            [9, 2],
            [1, 17],
          ])
            await expectSameAsDecodePng(testPng(ct, d, { width: w, height: h, interlace, trns }), [undefined, 1, 10]);
        });
      }
    }
  }

  for (const filter of [0, 1, 2, 3, 4]) {
    it(`filter type ${filter} on every row (RGB 8, RGBA 16, grey 2-bit)`, async () => {
      await expectSameAsDecodePng(testPng(2, 8, { filters: [filter] }));
      await expectSameAsDecodePng(testPng(6, 16, { filters: [filter] }));
      await expectSameAsDecodePng(testPng(0, 2, { filters: [filter] }));
    });
  }

  it("inflates in its own zlib instance, counted while it reads and gone after, output bounded", async () => {
    // A flat picture: a tiny stream that inflates to 12 MB, which one step never hands out at once.
    const width = 2000;
    const height = 1500;
    const raw = new Uint8Array(height * (1 + width * 4));
    const bytes = concat([SIGNATURE, ihdr(width, height, 8, 6), chunk("IDAT", zlibSync(raw, { level: 9 })), chunk("IEND", new Uint8Array(0))]);
    expect(bytes.length).toBeLessThan(30_000);
    const src = new PngBandSource(bytes);
    const before = heapReport().inflate ?? 0;
    let during = 0;
    let rows = 0;
    for await (const band of src.bands(1 << 18)) {
      during = Math.max(during, heapReport().inflate ?? 0);
      expect(band.pixels.data.every((v) => v === 0)).toBe(true);
      rows += band.pixels.height;
    }
    expect(rows).toBe(height);
    expect(during - before).toBeGreaterThan(0);
    expect(during - before).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(heapReport().inflate ?? 0).toBe(before);
  });

  it("IDAT split into 1-byte chunks, empty chunks, and one big chunk", async () => {
    await expectSameAsDecodePng(testPng(2, 8, { idatSizes: [1] }));
    await expectSameAsDecodePng(testPng(6, 8, { idatSizes: [100000] }));
    const p: RawPng = { width: 20, height: 10, colorType: 2, bitDepth: 8, samples: sampleData(20, 10, 3, 8) };
    const z = zlibSync(rawImageData(p));
    const withEmpty = concat([
      SIGNATURE,
      ihdr(20, 10, 8, 2),
      chunk("IDAT", new Uint8Array(0)),
      ...idatChunks(z, [5, 0, 3]),
      chunk("IDAT", new Uint8Array(0)),
      chunk("IEND", new Uint8Array(0)),
    ]);
    await expectSameAsDecodePng(withEmpty);
  });

  it("streams a larger RGB image in many small bands", async () => {
    const p: RawPng = { width: 640, height: 480, colorType: 2, bitDepth: 8, samples: sampleData(640, 480, 3, 8, 99), idatSizes: [8192, 3001] };
    await expectSameAsDecodePng(buildPng(p), [undefined, 640 * 7, 640 * 480 * 2, 1000]);
  });

  it("flat (highly compressible) and noisy parts in one image", async () => {
    const w = 1500,
      h = 400;
    const samples = new Uint16Array(w * h * 3);
    let r = 7;
    for (let i = (w * h * 3) / 2; i < samples.length; i++) {
      r = (Math.imul(r, 1103515245) + 12345) & 0x7fffffff;
      samples[i] = (r >> 16) & 255;
    }
    await expectSameAsDecodePng(buildPng({ width: w, height: h, colorType: 2, bitDepth: 8, samples, filters: [0, 4], idatSizes: [20000] }), [
      undefined,
      w * 3,
      12345,
    ]);
  });

  it("an iteration stopped early does not disturb the next one", async () => {
    const bytes = testPng(6, 16, { width: 40, height: 30 });
    const src = new PngBandSource(bytes);
    for await (const band of src.bands(100)) {
      expect(band.y).toBe(0);
      break;
    }
    const ref = await decodePng(bytes);
    expect(firstDiff((await collect(src, 100)).data, ref.data, 40)).toBeNull();
  });

  it("16-bit samples keep their high byte (no rounding), and tRNS compares all 16 bits", async () => {
    const samples = new Uint16Array([0x00ff, 0x0180, 0xff80, 0x7f80, 0x0180, 0x01ff]);
    const bytes = buildPng({ width: 6, height: 1, colorType: 0, bitDepth: 16, samples, trns: new Uint8Array([0x01, 0x80]) });
    const got = await collect(new PngBandSource(bytes));
    expect(Array.from(got.data)).toEqual([0, 0, 0, 255, 1, 1, 1, 0, 255, 255, 255, 255, 127, 127, 127, 255, 1, 1, 1, 0, 1, 1, 1, 255]);
    await expectSameAsDecodePng(bytes);
  });

  it("grey / RGB tRNS below 16 bits compares the key's low byte only (as decodePng)", async () => {
    await expectSameAsDecodePng(
      buildPng({ width: 4, height: 1, colorType: 0, bitDepth: 2, samples: new Uint16Array([0, 1, 2, 3]), trns: new Uint8Array([1, 2]) }),
    );
    await expectSameAsDecodePng(
      buildPng({ width: 4, height: 1, colorType: 0, bitDepth: 8, samples: new Uint16Array([1, 2, 3, 4]), trns: new Uint8Array([1, 2]) }),
    );
    await expectSameAsDecodePng(
      buildPng({ width: 2, height: 1, colorType: 2, bitDepth: 8, samples: new Uint16Array([1, 2, 3, 4, 5, 6]), trns: new Uint8Array([9, 1, 0, 2, 0, 3]) }),
    );
    // A key no sample can reach, and a longer-than-needed key.
    await expectSameAsDecodePng(
      buildPng({ width: 4, height: 1, colorType: 0, bitDepth: 4, samples: new Uint16Array([0, 5, 10, 15]), trns: new Uint8Array([0, 200]) }),
    );
    await expectSameAsDecodePng(
      buildPng({ width: 4, height: 1, colorType: 0, bitDepth: 8, samples: new Uint16Array([1, 2, 3, 4]), trns: new Uint8Array([0, 2, 0]) }),
    );
  });

  it("palette edge cases: indices past PLTE, short / exact / too long tRNS, odd PLTE length", async () => {
    const pal = new Uint8Array([10, 20, 30, 40, 50, 60]);
    const samples = new Uint16Array([0, 1, 2, 3, 200, 255, 1, 0]);
    for (const trns of [undefined, new Uint8Array([7]), new Uint8Array([7, 8]), new Uint8Array([7, 8, 9]), new Uint8Array(0)]) {
      const bytes = buildPng({ width: 8, height: 1, colorType: 3, bitDepth: 8, samples, palette: pal, trns });
      await expectSameAsDecodePng(bytes);
    }
    await expectSameAsDecodePng(
      buildPng({
        width: 4,
        height: 1,
        colorType: 3,
        bitDepth: 2,
        samples: new Uint16Array([0, 1, 2, 3]),
        palette: new Uint8Array([1, 2, 3, 4, 5, 6, 7]),
        trns: new Uint8Array([9, 9]),
      }),
    );
    await expectSameAsDecodePng(
      buildPng({
        width: 4,
        height: 1,
        colorType: 3,
        bitDepth: 2,
        samples: new Uint16Array([0, 1, 2, 3]),
        palette: new Uint8Array([1, 2, 3, 4, 5, 6, 7]),
        trns: new Uint8Array([9, 9, 9]),
      }),
    );
  });
});

describe("PngBandSource: header facts", () => {
  const cases: [string, () => Uint8Array, { grey: boolean; mayHaveAlpha: boolean; interlaced: boolean }][] = [
    ["grey 8", () => testPng(0, 8), { grey: true, mayHaveAlpha: false, interlaced: false }],
    ["grey 1 + tRNS", () => testPng(0, 1, { trns: true }), { grey: true, mayHaveAlpha: true, interlaced: false }],
    ["grey+alpha 16, Adam7", () => testPng(4, 16, { interlace: true }), { grey: true, mayHaveAlpha: true, interlaced: true }],
    ["RGB 8", () => testPng(2, 8), { grey: false, mayHaveAlpha: false, interlaced: false }],
    ["RGB 16 + tRNS", () => testPng(2, 16, { trns: true }), { grey: false, mayHaveAlpha: true, interlaced: false }],
    ["RGBA 8", () => testPng(6, 8), { grey: false, mayHaveAlpha: true, interlaced: false }],
    ["palette", () => testPng(3, 4), { grey: false, mayHaveAlpha: false, interlaced: false }],
    ["palette + tRNS", () => testPng(3, 8, { trns: true }), { grey: false, mayHaveAlpha: true, interlaced: false }],
    [
      "grey palette, opaque tRNS",
      () =>
        buildPng({
          width: 2,
          height: 1,
          colorType: 3,
          bitDepth: 8,
          samples: new Uint16Array([0, 1]),
          palette: new Uint8Array([5, 5, 5, 9, 9, 9]),
          trns: new Uint8Array([255, 255]),
        }),
      { grey: true, mayHaveAlpha: false, interlaced: false },
    ],
    [
      "palette with a tRNS longer than PLTE (ignored)",
      () =>
        buildPng({
          width: 2,
          height: 1,
          colorType: 3,
          bitDepth: 8,
          samples: new Uint16Array([0, 1]),
          palette: new Uint8Array([5, 5, 5, 9, 9, 9]),
          trns: new Uint8Array([0, 0, 0]),
        }),
      { grey: true, mayHaveAlpha: false, interlaced: false },
    ],
  ];
  for (const [name, make, facts] of cases) {
    it(name, async () => {
      const bytes = make();
      const src = new PngBandSource(bytes);
      expect({ grey: src.grey, mayHaveAlpha: src.mayHaveAlpha, interlaced: src.interlaced }).toEqual(facts);
      // The facts hold for the pixels decodePng gives.
      const ref = await decodePng(bytes);
      let grey = true,
        opaque = true;
      for (let i = 0; i < ref.data.length; i += 4) {
        if (ref.data[i] !== ref.data[i + 1] || ref.data[i] !== ref.data[i + 2]) grey = false;
        if (ref.data[i + 3] !== 255) opaque = false;
      }
      if (facts.grey) expect(grey).toBe(true);
      if (!facts.mayHaveAlpha) expect(opaque).toBe(true);
    });
  }
});

describe("PngBandSource: corpus PNGs", () => {
  itWithCorpus("lists the corpus PNGs", async () => {
    const rows = await corpusManifest("images");
    const pngs = rows.map((r) => r.file).filter((f) => f.endsWith(".png"));
    expect(pngs.sort()).toEqual(CORPUS_PNGS.slice().sort());
  });
  for (const name of CORPUS_PNGS) {
    itWithCorpus(`${name} decodes exactly as decodePng`, async () => {
      const bytes = await corpusFile(`images/${name}`);
      await expectSameAsDecodePng(bytes, [undefined, 1000]);
    });
  }
});

const CORPUS_PNGS = ["libjpeg-turbo/monkey16.png", "libjpeg-turbo/vgl_5674_0098.png", "libvips/sample.png", "libvips/rgba.png", "libvips/trans-x.png"];

describe("PngBandSource: damaged files, same verdict as decodePng", () => {
  const E = new Uint8Array(0);
  const grey: RawPng = { width: 4, height: 2, colorType: 0, bitDepth: 8, samples: new Uint16Array([1, 2, 3, 4, 5, 6, 7, 8]) };
  const zg = zlibSync(rawImageData(grey));
  const png = (...parts: Uint8Array[]) => concat([SIGNATURE, ...parts, chunk("IEND", E)]);
  const pal = new Uint8Array([10, 20, 30, 40, 50, 60]);
  const zp = zlibSync(rawImageData({ width: 4, height: 2, colorType: 3, bitDepth: 8, samples: new Uint16Array([0, 1, 1, 0, 1, 0, 0, 1]) }));
  const flip = (b: Uint8Array, at: number) => {
    const c = b.slice();
    c[at] ^= 0xff;
    return c;
  };
  const valid = png(ihdr(4, 2, 8, 0), chunk("IDAT", zg));
  const text = chunk("tEXt", new Uint8Array([65, 0, 66]));

  const refused: [string, Uint8Array][] = [
    ["bad signature", flip(valid, 1)],
    ["empty file", E],
    ["signature only", SIGNATURE],
    ["first chunk not IHDR", png(text, ihdr(4, 2, 8, 0), chunk("IDAT", zg))],
    ["no IDAT", png(ihdr(4, 2, 8, 0))],
    ["zero width", png(ihdr(0, 2, 8, 0), chunk("IDAT", zg))],
    ["bad bit depth for RGB", png(ihdr(4, 2, 4, 2), chunk("IDAT", zg))],
    ["16-bit palette", png(ihdr(4, 2, 16, 3), chunk("PLTE", pal), chunk("IDAT", zg))],
    ["colour type 1", png(ihdr(4, 2, 8, 1), chunk("IDAT", zg))],
    [
      "interlace method 2",
      png(
        ihdr(4, 2, 8, 0).map((v, i) => (i === 20 ? 2 : v)),
        chunk("IDAT", zg),
      ),
    ],
    ["short IHDR", png(chunk("IHDR", ihdr(4, 2, 8, 0).subarray(8, 20)), chunk("IDAT", zg))],
    ["two IHDRs", png(ihdr(4, 2, 8, 0), ihdr(4, 2, 8, 0), chunk("IDAT", zg))],
    ["palette image without PLTE", png(ihdr(4, 2, 8, 3), chunk("IDAT", zp))],
    ["empty PLTE", png(ihdr(4, 2, 8, 3), chunk("PLTE", E), chunk("IDAT", zp))],
    ["two PLTEs", png(ihdr(4, 2, 8, 3), chunk("PLTE", pal), chunk("PLTE", pal), chunk("IDAT", zp))],
    ["tRNS before PLTE", png(ihdr(4, 2, 8, 3), chunk("tRNS", new Uint8Array([1])), chunk("PLTE", pal), chunk("IDAT", zp))],
    ["two tRNS", png(ihdr(4, 2, 8, 3), chunk("PLTE", pal), chunk("tRNS", new Uint8Array([1])), chunk("tRNS", new Uint8Array([1])), chunk("IDAT", zp))],
    [
      "tRNS on grey+alpha",
      png(ihdr(4, 2, 8, 4), chunk("tRNS", new Uint8Array(2)), chunk("IDAT", zlibSync(rawImageData({ ...grey, colorType: 4, samples: new Uint16Array(16) })))),
    ],
    ["short grey tRNS", png(ihdr(4, 2, 8, 0), chunk("tRNS", new Uint8Array([1])), chunk("IDAT", zg))],
    ["bad filter type", buildPng({ ...grey, filters: [0, 5] })],
    ["too few rows", png(ihdr(4, 2, 8, 0), chunk("IDAT", zlibSync(rawImageData(grey).subarray(0, 7))))],
    ["zlib stream without its checksum", png(ihdr(4, 2, 8, 0), chunk("IDAT", zg.subarray(0, zg.length - 4)))],
    ["bad zlib header", png(ihdr(4, 2, 8, 0), chunk("IDAT", flip(zg, 0)))],
    ["zlib preset dictionary", png(ihdr(4, 2, 8, 0), chunk("IDAT", zlibSync(rawImageData(grey), { dictionary: new Uint8Array([1, 2, 3]) })))],
    ["corrupt deflate data", png(ihdr(4, 2, 8, 0), chunk("IDAT", flip(zg, 2)))],
    ["no chunk after the IDATs", concat([SIGNATURE, ihdr(4, 2, 8, 0), chunk("IDAT", zg)])],
    ["image data split by another chunk", png(ihdr(4, 2, 8, 0), chunk("IDAT", zg.subarray(0, 5)), text, chunk("IDAT", zg.subarray(5)))],
    [
      "huge chunk length",
      (() => {
        const b = png(ihdr(4, 2, 8, 0), text, chunk("IDAT", zg));
        new DataView(b.buffer).setUint32(33, 0x80000000);
        return b;
      })(),
    ],
  ];
  for (const [name, bytes] of refused) {
    it(`refuses: ${name}`, async () => {
      expect(await expectSameOutcome(name, bytes)).toBe("corrupt");
    });
  }

  const accepted: [string, Uint8Array][] = [
    ["bad CRCs (not checked)", concat([SIGNATURE, chunk("IHDR", ihdr(4, 2, 8, 0).subarray(8, 21), true), chunk("IDAT", zg, true), chunk("IEND", E, true)])],
    ["bad Adler-32 (not checked)", png(ihdr(4, 2, 8, 0), chunk("IDAT", flip(zg, zg.length - 1)))],
    ["IEND cut after its header", valid.subarray(0, valid.length - 4)],
    ["extra data after the rows", png(ihdr(4, 2, 8, 0), chunk("IDAT", zlibSync(concat([rawImageData(grey), new Uint8Array(50)]))))],
    ["junk after the zlib stream", png(ihdr(4, 2, 8, 0), chunk("IDAT", concat([zg, new Uint8Array([1, 2, 3])])), chunk("IDAT", new Uint8Array([4, 5])))],
    ["ancillary chunks after the IDATs", png(ihdr(4, 2, 8, 0), chunk("IDAT", zg), text, chunk("IDAT", new Uint8Array([1, 2])))],
    ["longer IHDR", png(chunk("IHDR", concat([ihdr(4, 2, 8, 0).subarray(8, 21), new Uint8Array([0])])), chunk("IDAT", zg))],
  ];
  for (const [name, bytes] of accepted) {
    it(`accepts: ${name}`, async () => {
      expect(await expectSameOutcome(name, bytes)).toBe("ok");
    });
  }

  it("truncated anywhere: same verdict as decodePng (it needs the header of the chunk after the IDATs)", async () => {
    // decodePng's WASM leaks its shadow stack on every refused file and, after
    // ~700 refusals in one isolate, refuses everything: the offsets are sampled
    // to stay far below that.
    const files = [
      valid,
      testPng(2, 8, { width: 9, height: 6, idatSizes: [10, 7] }),
      testPng(3, 4, { width: 9, height: 6, trns: true, interlace: true, idatSizes: [13] }),
    ];
    for (const f of files) {
      const offsets = [...Array(f.length).keys()].filter((n) => f === valid || n % 7 === 3 || n >= f.length - 16);
      for (const n of offsets) {
        const verdict = await expectSameOutcome(`truncated to ${n} of ${f.length} bytes`, f.subarray(0, n));
        // Everything up to the IEND chunk's type is needed; its CRC is not.
        expect(verdict, `truncated to ${n} of ${f.length} bytes`).toBe(n >= f.length - 4 ? "ok" : "corrupt");
      }
    }
  });

  it("reports damage in the data from bands(), as EngineError corrupt", async () => {
    const src = new PngBandSource(png(ihdr(4, 2, 8, 0), chunk("IDAT", zlibSync(rawImageData(grey).subarray(0, 7)))));
    await expect(collect(src)).rejects.toMatchObject({ kind: "corrupt", message: expect.stringContaining("truncated") });
    expect(() => new PngBandSource(flip(valid, 0))).toThrow(EngineError);
  });
});
