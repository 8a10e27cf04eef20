import { Zlib } from "fflate";
import { ByteWriter, concat } from "../bytes";
import { crc32 } from "../crc32";
import type { Palette } from "../quantize";
import type { Pixels } from "../types";

// Our own PNG writer for pictures too big for oxipng in a Worker (its WASM
// heap needs ~27 bytes a pixel and seconds a megapixel): colour type reduced
// to what the pixels need (grey, RGB, palette, with or without alpha), the
// usual per-row adaptive filter choice, zlib level 9 for palettes, 6 for
// true colour, streamed row by row.

function chunk(type: string, data: Uint8Array): Uint8Array {
  const w = new ByteWriter(data.length + 12);
  w.u32be(data.length);
  const t = new TextEncoder().encode(type);
  w.bytes(t);
  w.bytes(data);
  w.u32be(crc32(t, data));
  return w.result();
}

function ihdr(width: number, height: number, depth: number, colorType: number): Uint8Array {
  const w = new ByteWriter(13);
  w.u32be(width);
  w.u32be(height);
  w.u8(depth);
  w.u8(colorType);
  w.u8(0);
  w.u8(0);
  w.u8(0);
  return chunk("IHDR", w.result());
}

const paeth = (a: number, b: number, c: number): number => {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** Filters one row with each of the five filters; keeps the one with the smallest sum of |signed bytes|. */
function bestFilter(row: Uint8Array, prev: Uint8Array, bpp: number, out: Uint8Array[]): Uint8Array {
  let best = out[0];
  let bestScore = Infinity;
  for (let f = 0; f < 5; f++) {
    const o = out[f];
    o[0] = f;
    let score = 0;
    for (let i = 0; i < row.length; i++) {
      const a = i >= bpp ? row[i - bpp] : 0;
      const b = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
      const v = (row[i] - pred) & 0xff;
      o[i + 1] = v;
      score += v < 128 ? v : 256 - v;
      if (score >= bestScore) break;
    }
    if (score < bestScore) {
      bestScore = score;
      best = o;
    }
  }
  return best;
}

export type PngLayout = "grey" | "grey-alpha" | "rgb" | "rgba";

const LAYOUT: Record<PngLayout, { channels: number; colorType: number }> = {
  grey: { channels: 1, colorType: 0 },
  "grey-alpha": { channels: 2, colorType: 4 },
  rgb: { channels: 3, colorType: 2 },
  rgba: { channels: 4, colorType: 6 },
};

/** The smallest true-colour layout that holds these pixels exactly. */
export function layoutOf(px: Pixels): PngLayout {
  const d = px.data;
  let alpha = false;
  let grey = true;
  for (let i = 0; i < d.length && (grey || !alpha); i += 4) {
    if (d[i + 3] !== 255) alpha = true;
    if (d[i] !== d[i + 1] || d[i] !== d[i + 2]) grey = false;
  }
  return grey ? (alpha ? "grey-alpha" : "grey") : alpha ? "rgba" : "rgb";
}

function compress(rows: (y: number) => Uint8Array, height: number, level: 6 | 9): Uint8Array {
  const parts: Uint8Array[] = [];
  const z = new Zlib({ level });
  z.ondata = (data) => {
    parts.push(data);
  };
  for (let y = 0; y < height; y++) z.push(rows(y), y === height - 1);
  return concat(parts);
}

/** Lossless true-colour (or grey) PNG. */
export function writePng(px: Pixels, layout = layoutOf(px)): Uint8Array {
  const { channels, colorType } = LAYOUT[layout];
  const rowBytes = px.width * channels;
  const candidates = Array.from({ length: 5 }, () => new Uint8Array(rowBytes + 1));
  let prev = new Uint8Array(rowBytes);
  let row = new Uint8Array(rowBytes);
  const idat = compress(
    (y) => {
      const src = y * px.width * 4;
      for (let x = 0; x < px.width; x++) {
        const s = src + x * 4;
        const o = x * channels;
        if (channels <= 2) {
          row[o] = px.data[s];
          if (channels === 2) row[o + 1] = px.data[s + 3];
        } else {
          row[o] = px.data[s];
          row[o + 1] = px.data[s + 1];
          row[o + 2] = px.data[s + 2];
          if (channels === 4) row[o + 3] = px.data[s + 3];
        }
      }
      const filtered = bestFilter(row, prev, channels, candidates).slice();
      [prev, row] = [row, prev];
      return filtered;
    },
    px.height,
    6,
  );
  return pngFile([ihdr(px.width, px.height, 8, colorType), chunk("IDAT", idat)]);
}

/** Palette PNG from quantiser output: translucent entries first (short tRNS), rows unfiltered (best for indices). */
export function writePalettePng(width: number, height: number, pal: Palette): Uint8Array {
  const n = pal.colors.length / 4;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => Number(pal.colors[a * 4 + 3] === 255) - Number(pal.colors[b * 4 + 3] === 255));
  const newIndex = new Uint8Array(256);
  order.forEach((old, i) => (newIndex[old] = i));
  const plte = new Uint8Array(n * 3);
  let translucent = 0;
  order.forEach((old, i) => {
    plte.set(pal.colors.subarray(old * 4, old * 4 + 3), i * 3);
    if (pal.colors[old * 4 + 3] !== 255) translucent = i + 1;
  });
  const depth = n <= 2 ? 1 : n <= 4 ? 2 : n <= 16 ? 4 : 8;
  const rowBytes = Math.ceil((width * depth) / 8);
  const idat = compress(
    (y) => {
      const row = new Uint8Array(rowBytes + 1);
      for (let x = 0; x < width; x++) {
        const v = newIndex[pal.indices[y * width + x]];
        const bit = x * depth;
        row[1 + (bit >> 3)] |= v << (8 - depth - (bit & 7));
      }
      return row;
    },
    height,
    9,
  );
  const chunks = [ihdr(width, height, depth, 3), chunk("PLTE", plte)];
  if (translucent) chunks.push(chunk("tRNS", Uint8Array.from(order.slice(0, translucent), (old) => pal.colors[old * 4 + 3])));
  chunks.push(chunk("IDAT", idat));
  return pngFile(chunks);
}

function pngFile(chunks: Uint8Array[]): Uint8Array {
  return concat([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks, chunk("IEND", new Uint8Array(0))]);
}
