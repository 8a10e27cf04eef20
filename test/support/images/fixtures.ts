import { GIFEncoder } from "gifenc";
import * as utifModule from "utif2";
import { encodeAvif } from "../../../src/engines/images/codecs/avif";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { encodePng } from "../../../src/engines/images/codecs/png";
import { encodeWebp } from "../../../src/engines/images/codecs/webp";
import { STD_AC_LUMA, STD_DC_LUMA } from "../../../src/engines/images/jpeg/huffman";
import { EOI_BYTES, jpegHeader, ScanEncoder, type HuffmanSet } from "../../../src/engines/images/jpeg/write";
import type { Pixels } from "../../../src/engines/images/types";
import { concat } from "../../../src/engines/images/util/bytes";

// Input images built in code: pixels drawn here, then written with the plain
// codecs (MozJPEG, the PNG crate without optimisation, libwebp, libavif), with
// gifenc/UTIF for GIF/TIFF and by hand for BMP, so every input format is covered.

/** A photo-like RGBA picture: smooth gradients, a disc, and deterministic grain. */
export function photo(width: number, height: number, opts: { alpha?: boolean } = {}): Pixels {
  const data = new Uint8Array(width * height * 4);
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return ((seed >> 16) % 9) - 4;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const dx = x - width / 2,
        dy = y - height / 2;
      const inDisc = dx * dx + dy * dy < (Math.min(width, height) / 3) ** 2;
      data[o] = Math.max(0, Math.min(255, (x * 255) / width + noise()));
      data[o + 1] = Math.max(0, Math.min(255, (y * 255) / height + noise()));
      data[o + 2] = inDisc ? 200 : Math.max(0, Math.min(255, 128 + noise() * 4));
      data[o + 3] = opts.alpha ? (x < width / 4 ? 0 : x < width / 2 ? 128 : 255) : 255;
    }
  }
  return { data, width, height };
}

/** Left half pure red, right half pure blue: orientation is easy to check on it. */
/** Aliased black text on white: every 16 x 16 block holds two luma values 255 apart (aom's and our screen-content rule pass it). */
export function aliasedText(width: number, height: number): Pixels {
  const data = new Uint8Array(width * height * 4).fill(255);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const glyph = (((x >> 3) * 73856093) ^ ((y >> 4) * 19349663)) >>> 0;
      const ink = y % 16 < 11 && x % 8 < 6 && (glyph >> (((y % 16) >> 2) * 3 + ((x % 8) >> 1))) & 1;
      if (ink) data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
  return { data, width, height };
}

export function halves(width: number, height: number): Pixels {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const left = i % width < width / 2;
    data.set(left ? [255, 0, 0, 255] : [0, 0, 255, 255], i * 4);
  }
  return { data, width, height };
}

export const jpegOf = (px: Pixels, q = 92) => encodeJpeg(px, q);
export const pngOf = (px: Pixels) => encodePng(px);
export const webpOf = (px: Pixels, q = 90) => encodeWebp(px, q);
export const avifOf = (px: Pixels, q = 80) => encodeAvif(px, q);

/** A GIF with gifenc's own quantiser (not ours). */
export function gifOf(px: Pixels): Uint8Array {
  const palette: number[][] = [];
  const index = new Uint8Array(px.width * px.height);
  const seen = new Map<number, number>();
  for (let i = 0; i < index.length; i++) {
    // 6x6x6 cube: a plain, independent palette.
    const r = Math.round((px.data[i * 4] / 255) * 5),
      g = Math.round((px.data[i * 4 + 1] / 255) * 5),
      b = Math.round((px.data[i * 4 + 2] / 255) * 5);
    const key = r * 36 + g * 6 + b;
    let idx = seen.get(key);
    if (idx === undefined) {
      idx = palette.length;
      seen.set(key, idx);
      palette.push([r * 51, g * 51, b * 51]);
    }
    index[i] = idx;
  }
  const gif = GIFEncoder();
  gif.writeFrame(index, px.width, px.height, { palette, repeat: -1 });
  gif.finish();
  return gif.bytes();
}

/** 32-bit BI_RGB bottom-up BMP written by hand. */
export function bmpOf(px: Pixels): Uint8Array {
  const size = 54 + px.width * px.height * 4;
  const b = new Uint8Array(size);
  const v = new DataView(b.buffer);
  b.set([0x42, 0x4d]);
  v.setUint32(2, size, true);
  v.setUint32(10, 54, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, px.width, true);
  v.setInt32(22, px.height, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, 32, true);
  for (let y = 0; y < px.height; y++) {
    for (let x = 0; x < px.width; x++) {
      const s = (y * px.width + x) * 4;
      const d = 54 + ((px.height - 1 - y) * px.width + x) * 4;
      b[d] = px.data[s + 2];
      b[d + 1] = px.data[s + 1];
      b[d + 2] = px.data[s];
      b[d + 3] = 0;
    }
  }
  return b;
}

const UTIF = (utifModule as unknown as { default?: typeof utifModule }).default ?? utifModule;

/** Uncompressed RGBA TIFF from UTIF (an independent writer). */
export const tiffOf = (px: Pixels): Uint8Array => new Uint8Array(UTIF.encodeImage(new Uint8Array(px.data), px.width, px.height));

/** Inserts an EXIF APP1 with only an orientation tag after SOI. */
export function withOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
  const tiff = [0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const seg = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  const out = new Uint8Array(jpeg.length + seg.length);
  out.set(jpeg.subarray(0, 2));
  out.set(seg, 2);
  out.set(jpeg.subarray(2), 2 + seg.length);
  return out;
}

/** A valid PNG signature and IHDR claiming a huge size, with a token IDAT: a decompression bomb's header. */
export function pngBomb(width: number, height: number): Uint8Array {
  const b = new Uint8Array(8 + 25 + 12 + 12);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const v = new DataView(b.buffer);
  v.setUint32(8, 13);
  b.set([0x49, 0x48, 0x44, 0x52], 12);
  v.setUint32(16, width);
  v.setUint32(20, height);
  b.set([8, 6, 0, 0, 0], 24);
  return b;
}

export function file(bytes: Uint8Array, name: string): File {
  return new File([bytes], name);
}

/**
 * An Adobe CMYK JPEG (inverted, transform 0) of flat colours: left half cyan
 * ink, right half black ink, written from DC-only coefficients with all
 * quantisers 1 through the engine's plain JPEG writer.
 */
export function cmykJpeg(width = 64, height = 32): Uint8Array {
  const mcusX = Math.ceil(width / 8),
    mcusY = Math.ceil(height / 8);
  const comps = [1, 2, 3, 4].map((id) => ({ id, h: 1, v: 1, tq: 0, bw: mcusX, bh: mcusY, realBw: mcusX, realBh: mcusY }));
  const g = { width, height, hmax: 1, vmax: 1, mcusX, mcusY, mcuH: 8, components: comps };
  const dqt = new Uint8Array(65).fill(1);
  dqt[0] = 0;
  // Stored (inverted) values: cyan ink = C 0, M/Y/K 255; black ink = K 0, C/M/Y 255.
  const stored = (ci: number, left: boolean) => (left ? [0, 255, 255, 255] : [255, 255, 255, 0])[ci];
  const planes = comps.map((_, ci) => {
    const p = new Int16Array(mcusX * mcusY * 64);
    for (let by = 0; by < mcusY; by++) for (let bx = 0; bx < mcusX; bx++) p[(by * mcusX + bx) * 64] = (stored(ci, bx < mcusX / 2) - 128) * 8;
    return p;
  });
  const adobe = new Uint8Array([0xff, 0xee, 0, 14, 0x41, 0x64, 0x6f, 0x62, 0x65, 0, 100, 0, 0, 0, 0, 0]);
  const tables = { dc: [STD_DC_LUMA, STD_DC_LUMA], ac: [STD_AC_LUMA, STD_AC_LUMA] } as HuffmanSet;
  const enc = new ScanEncoder(g, tables);
  enc.encode({ firstMcuRow: 0, mcuRows: mcusY, planes });
  const parts = [jpegHeader(g, [dqt], height, tables, [adobe]), enc.finish(), EOI_BYTES];
  return concat(parts);
}
