import { zlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { file, photo } from "../../support/images/fixtures";
import { pixelsOf } from "../../support/images/pixels";
import type { Pixels } from "../../../src/engines/images/types";
import { fails, ok } from "./client";
import { roadsOf, sampledDiff } from "./roads";
import { formatOf, sizeOf } from "./inspect";

// Big tiled TIFFs read a row of tiles at a time (road "tiff-tiles") and big
// single-strip compressed TIFFs streamed a band of rows at a time (road
// "tiff-bands"), through HTTP: every compression the strip road covers
// (none, LZW, Deflate, PackBits) and the horizontal predictor, written here
// by an independent writer from known pixels, so lossless outputs must give
// those pixels back exactly. Damaged files answer 422, never 5xx.

type Compression = 1 | 5 | 8 | 32773;

/** TIFF LZW (MSB-first codes, 9 to 12 bits, one code early width changes, a clear before the table fills), as libtiff writes it. */
function lzw(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let width = 9;
  const put = (code: number) => {
    acc = (acc << width) | code;
    bits += width;
    while (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 255);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  };
  let dict = new Map<number, number>();
  let next = 258;
  put(256);
  let w = -1;
  for (const c of data) {
    if (w < 0) {
      w = c;
      continue;
    }
    const hit = dict.get(w * 256 + c);
    if (hit !== undefined) {
      w = hit;
      continue;
    }
    put(w);
    dict.set(w * 256 + c, next++);
    if (next === 1 << width && width < 12) width++;
    if (next === 4093) {
      put(256);
      dict = new Map();
      next = 258;
      width = 9;
    }
    w = c;
  }
  if (w >= 0) put(w);
  put(257);
  if (bits > 0) out.push((acc << (8 - bits)) & 255);
  return Uint8Array.from(out);
}

/** PackBits: runs of 3 or more as repeats, the rest as literals of up to 128 bytes. */
function packBits(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let i = 0;
  while (i < data.length) {
    let run = 1;
    while (i + run < data.length && run < 128 && data[i + run] === data[i]) run++;
    if (run >= 3) {
      out.push(257 - run, data[i]);
      i += run;
      continue;
    }
    const start = i;
    while (i < data.length && i - start < 128 && !(i + 2 < data.length && data[i] === data[i + 1] && data[i] === data[i + 2])) i++;
    out.push(i - start - 1, ...data.subarray(start, i));
  }
  return Uint8Array.from(out);
}

const compress = (c: Compression, raw: Uint8Array) => (c === 5 ? lzw(raw) : c === 8 ? zlibSync(raw) : c === 32773 ? packBits(raw) : raw);

interface Layout {
  compression: Compression;
  predictor?: boolean;
  alpha?: boolean;
  /** Tile size; else one strip of the whole picture. */
  tile?: [number, number];
}

/** Samples of rows y0..y1, columns x0..x0+w (zero past the picture, as tiles are padded), predicted if asked. */
function block(px: Pixels, x0: number, y0: number, w: number, h: number, spp: number, predictor: boolean): Uint8Array {
  const raw = new Uint8Array(w * h * spp);
  for (let y = 0; y < h && y0 + y < px.height; y++) {
    for (let x = 0; x < w && x0 + x < px.width; x++) {
      for (let c = 0; c < spp; c++) raw[(y * w + x) * spp + c] = px.data[((y0 + y) * px.width + x0 + x) * 4 + c];
    }
    if (predictor) for (let i = w * spp - 1; i >= spp; i--) raw[y * w * spp + i] = (raw[y * w * spp + i] - raw[y * w * spp + i - spp]) & 255;
  }
  return raw;
}

/** A little-endian TIFF of `px` (RGB, or RGBA with unassociated alpha), tiled or in one strip. */
function tiffFile(px: Pixels, layout: Layout): Uint8Array {
  const spp = layout.alpha ? 4 : 3;
  const predictor = !!layout.predictor;
  const blocks: Uint8Array[] = [];
  if (layout.tile) {
    const [tw, th] = layout.tile;
    for (let y = 0; y < px.height; y += th)
      for (let x = 0; x < px.width; x += tw) blocks.push(compress(layout.compression, block(px, x, y, tw, th, spp, predictor)));
  } else blocks.push(compress(layout.compression, block(px, 0, 0, px.width, px.height, spp, predictor)));
  const SHORT = 3;
  const LONG = 4;
  const tags: [number, number, number[]][] = [
    [256, LONG, [px.width]],
    [257, LONG, [px.height]],
    [258, SHORT, new Array(spp).fill(8)],
    [259, SHORT, [layout.compression]],
    [262, SHORT, [2]],
    [277, SHORT, [spp]],
    [284, SHORT, [1]],
    [317, SHORT, [predictor ? 2 : 1]],
    ...(layout.alpha ? [[338, SHORT, [2]] as [number, number, number[]]] : []),
  ];
  const offsets: number[] = [];
  const counts = blocks.map((b) => b.length);
  if (layout.tile) tags.push([322, LONG, [layout.tile[0]]], [323, LONG, [layout.tile[1]]], [324, LONG, offsets], [325, LONG, counts]);
  else tags.push([273, LONG, offsets], [278, LONG, [px.height]], [279, LONG, counts]);
  tags.sort((a, b) => a[0] - b[0]);
  const ifdSize = 2 + tags.length * 12 + 4;
  const extraSize =
    tags.reduce((n, [, type, v]) => n + (v.length * (type === SHORT ? 2 : 4) > 4 || v === offsets ? v.length * 4 + 4 : 0), 0) + blocks.length * 4;
  let at = 8 + ifdSize + extraSize;
  for (const b of blocks) {
    offsets.push(at);
    at += b.length;
  }
  const out = new Uint8Array(at);
  const v = new DataView(out.buffer);
  out.set([0x49, 0x49, 42, 0]);
  v.setUint32(4, 8, true);
  v.setUint16(8, tags.length, true);
  let extra = 8 + ifdSize;
  tags.forEach(([tag, type, values], i) => {
    const e = 10 + i * 12;
    const size = type === SHORT ? 2 : 4;
    v.setUint16(e, tag, true);
    v.setUint16(e + 2, type, true);
    v.setUint32(e + 4, values.length, true);
    let to = e + 8;
    if (values.length * size > 4) {
      v.setUint32(e + 8, extra, true);
      to = extra;
      extra += values.length * size + ((values.length * size) & 1);
    }
    for (const [k, value] of values.entries()) {
      if (size === 2) v.setUint16(to + k * 2, value, true);
      else v.setUint32(to + k * 4, value, true);
    }
  });
  let o = offsets[0];
  for (const b of blocks) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}

const convert = (bytes: Uint8Array, name: string, target: string) => ok("/api/v1/image/convert", { file: file(bytes, name), target_format: target });

async function taking(bytes: Uint8Array, target: string): Promise<{ roads: Awaited<ReturnType<typeof roadsOf>>; out: Uint8Array }> {
  let out: Uint8Array = new Uint8Array(0);
  const roads = await roadsOf(async () => {
    out = (await convert(bytes, "big.tif", target)).bytes;
  });
  return { roads, out };
}

// 2.08 MP, just over the 2 MP where banded roads start; 1600 is not a multiple of the tiles' width, nor 1300 of their height.
const source = photo(1600, 1300);
const withAlpha = photo(1600, 1300, { alpha: true });

describe("tiled TIFF, a row of tiles at a time", () => {
  it("reads LZW tiles with the predictor losslessly to PNG", async () => {
    const { roads, out } = await taking(tiffFile(source, { compression: 5, predictor: true, tile: [256, 256] }), "png");
    expect(roads).toEqual({ sources: { "tiff-tiles": 1 }, sinks: { "png-rows": 1 } });
    expect(sampledDiff(source, await pixelsOf(out), [0, 1, 2, 3])).toBe(0);
  });

  it("reads Deflate tiles with alpha, uncompressed and PackBits tiles, losslessly to PNG", async () => {
    for (const [layout, px] of [
      [{ compression: 8, predictor: true, alpha: true, tile: [512, 128] }, withAlpha],
      [{ compression: 1, tile: [128, 64] }, source],
      [{ compression: 32773, tile: [256, 256] }, source],
    ] as [Layout, Pixels][]) {
      const { roads, out } = await taking(tiffFile(px, layout), "png");
      expect(roads.sources).toEqual({ "tiff-tiles": 1 });
      expect(sampledDiff(px, await pixelsOf(out), [0, 1, 2, 3])).toBe(0);
    }
  });

  it("converts tiles to a banded JPEG", async () => {
    const { roads, out } = await taking(tiffFile(source, { compression: 8, tile: [256, 256] }), "jpg");
    expect(roads).toEqual({ sources: { "tiff-tiles": 1 }, sinks: { "jpeg-bands": 1 } });
    expect(formatOf(out)).toBe("jpeg");
    expect(sizeOf(out)).toEqual([1600, 1300]);
    expect(sampledDiff(source, await pixelsOf(out))).toBeLessThan(4);
  });
});

describe("single-strip compressed TIFF, streamed a band of rows at a time", () => {
  it("reads one LZW, Deflate or PackBits strip (predictor or not) losslessly to PNG", async () => {
    for (const layout of [
      { compression: 5, predictor: true },
      { compression: 8, predictor: true, alpha: true },
      { compression: 8 },
      { compression: 32773 },
    ] as Layout[]) {
      const px = layout.alpha ? withAlpha : source;
      const { roads, out } = await taking(tiffFile(px, layout), "png");
      expect(roads, JSON.stringify(layout)).toEqual({ sources: { "tiff-bands": 1 }, sinks: { "png-rows": 1 } });
      expect(sampledDiff(px, await pixelsOf(out), [0, 1, 2, 3])).toBe(0);
    }
  });
});

describe("damaged tiled and single-strip TIFFs", () => {
  it("answers 422 invalid_image, never a 5xx", async () => {
    const tiled = tiffFile(source, { compression: 8, tile: [256, 256] });
    const strip = tiffFile(source, { compression: 5 });
    const garble = (b: Uint8Array, from: number) => {
      const d = b.slice();
      for (let i = from; i < d.length; i += 7) d[i] ^= 0x5a;
      return d;
    };
    // Garbled compressed data, and a file cut short after its first blocks.
    for (const damaged of [garble(tiled, 2048), garble(strip, 4096), tiled.slice(0, 60000)]) {
      expect(await fails("/api/v1/image/convert", { file: file(damaged, "damaged.tif"), target_format: "png" }, 422)).toBe("invalid_image");
    }
  });
});
