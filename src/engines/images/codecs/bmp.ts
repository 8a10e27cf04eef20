import { EngineError } from "../../errors";
import { ByteWriter, i32le, u16le, u32le } from "../util/bytes";
import type { Pixels } from "../types";

// Windows bitmaps: our own small reader (1/4/8-bit palette, RLE4/RLE8, 16/24/32
// bit with or without bit-field masks, all header versions) and a 24-bit writer.

const corrupt = (why: string) => new EngineError("corrupt", `The BMP could not be decoded: ${why}.`);

export interface BmpHeader {
  width: number;
  height: number;
  topDown: boolean;
  bpp: number;
  compression: number;
  headerSize: number;
  dataOffset: number;
}

export function readBmpHeader(b: Uint8Array): BmpHeader {
  if (b.length < 26) throw corrupt("the header is cut short");
  const dataOffset = u32le(b, 10);
  const headerSize = u32le(b, 14);
  if (headerSize === 12) {
    return { width: u16le(b, 18), height: u16le(b, 20), topDown: false, bpp: u16le(b, 24), compression: 0, headerSize, dataOffset };
  }
  if (headerSize < 40 || b.length < 14 + 40) throw corrupt("unknown header");
  const h = i32le(b, 22);
  return { width: i32le(b, 18), height: Math.abs(h), topDown: h < 0, bpp: u16le(b, 28), compression: u32le(b, 30), headerSize, dataOffset };
}

interface Masks {
  r: number;
  g: number;
  b: number;
  a: number;
}

function maskShift(m: number): [number, number] {
  if (!m) return [0, 0];
  let shift = 0;
  while (((m >>> shift) & 1) === 0) shift++;
  let bits = 0;
  while (((m >>> (shift + bits)) & 1) === 1) bits++;
  return [shift, bits];
}

function channel(v: number, mask: number): number {
  const [shift, bits] = maskShift(mask);
  if (!bits) return 0;
  const raw = (v & mask) >>> shift;
  return bits >= 8 ? raw >>> (bits - 8) : Math.round((raw * 255) / ((1 << bits) - 1));
}

function masksOf(b: Uint8Array, h: BmpHeader): Masks {
  if (h.compression === 3 || h.compression === 6) {
    // Masks follow a 40-byte header, or sit inside V2+ headers at the same place.
    const at = 14 + 40;
    return { r: u32le(b, at), g: u32le(b, at + 4), b: u32le(b, at + 8), a: h.compression === 6 || h.headerSize >= 56 ? u32le(b, at + 12) : 0 };
  }
  if (h.bpp === 16) return { r: 0x7c00, g: 0x03e0, b: 0x001f, a: 0 };
  return { r: 0xff0000, g: 0xff00, b: 0xff, a: 0 };
}

function palette(b: Uint8Array, h: BmpHeader): Uint8Array {
  const entry = h.headerSize === 12 ? 3 : 4;
  const start = 14 + h.headerSize + (h.compression === 3 && h.headerSize === 40 ? 12 : 0);
  const declared = h.headerSize >= 40 ? u32le(b, 46) : 0;
  const n = Math.min(declared || 1 << h.bpp, 256, Math.floor((h.dataOffset - start) / entry));
  const out = new Uint8Array(256 * 3);
  for (let i = 0; i < n; i++) {
    const at = start + i * entry;
    out[i * 3] = b[at + 2];
    out[i * 3 + 1] = b[at + 1];
    out[i * 3 + 2] = b[at];
  }
  return out;
}

/** RLE4/RLE8 into one index per pixel, bottom-up rows as stored. */
function unRle(b: Uint8Array, h: BmpHeader): Uint8Array {
  const out = new Uint8Array(h.width * h.height);
  const four = h.compression === 2;
  let at = h.dataOffset;
  let x = 0;
  let y = 0;
  const put = (v: number) => {
    if (x < h.width && y < h.height) out[y * h.width + x] = v;
    x++;
  };
  while (at + 1 < b.length && y < h.height) {
    const n = b[at],
      v = b[at + 1];
    at += 2;
    if (n > 0) {
      for (let k = 0; k < n; k++) put(four ? (k & 1 ? v & 15 : v >> 4) : v);
      continue;
    }
    if (v === 0) {
      x = 0;
      y++;
    } else if (v === 1) {
      return out;
    } else if (v === 2) {
      x += b[at];
      y += b[at + 1];
      at += 2;
    } else {
      for (let k = 0; k < v; k++) put(four ? (k & 1 ? b[at + (k >> 1)] & 15 : b[at + (k >> 1)] >> 4) : b[at + k]);
      const used = four ? (v + 1) >> 1 : v;
      at += used + (used & 1);
    }
  }
  if (y < h.height - 1) throw corrupt("the pixel data is cut short");
  return out;
}

export function decodeBmp(b: Uint8Array): Pixels {
  const h = readBmpHeader(b);
  const { width: w, height: ht, bpp } = h;
  if (w <= 0 || ht <= 0) throw corrupt("zero size");
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw corrupt(`${bpp} bits per pixel is not a BMP depth`);
  if (![0, 1, 2, 3, 6].includes(h.compression)) throw corrupt("embedded JPEG/PNG bitmaps are not supported");
  const out = new Uint8Array(w * ht * 4);
  const rowOf = (stored: number) => (h.topDown ? stored : ht - 1 - stored);
  if (h.compression === 1 || h.compression === 2) {
    const pal = palette(b, h);
    const idx = unRle(b, h);
    for (let s = 0; s < ht; s++) {
      const y = rowOf(s);
      for (let x = 0; x < w; x++) {
        const c = idx[s * w + x],
          o = (y * w + x) * 4;
        out[o] = pal[c * 3];
        out[o + 1] = pal[c * 3 + 1];
        out[o + 2] = pal[c * 3 + 2];
        out[o + 3] = 255;
      }
    }
    return { data: out, width: w, height: ht };
  }
  const stride = Math.ceil((w * bpp) / 32) * 4;
  if (h.dataOffset + stride * (ht - 1) + Math.ceil((w * bpp) / 8) > b.length) throw corrupt("the pixel data is cut short");
  const pal = bpp <= 8 ? palette(b, h) : null;
  const masks = bpp > 8 ? masksOf(b, h) : null;
  // 32-bit BI_RGB files usually leave the fourth byte 0: only trust it when some pixel sets it.
  let alphaUsed = masks ? masks.a !== 0 : false;
  for (let s = 0; s < ht; s++) {
    const y = rowOf(s);
    const row = h.dataOffset + s * stride;
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      if (pal) {
        const bit = x * bpp;
        const byte = b[row + (bit >> 3)];
        const c = (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        out[o] = pal[c * 3];
        out[o + 1] = pal[c * 3 + 1];
        out[o + 2] = pal[c * 3 + 2];
        out[o + 3] = 255;
        continue;
      }
      const m = masks as Masks;
      const at = row + (x * bpp) / 8;
      const v = bpp === 16 ? u16le(b, at) : bpp === 24 ? b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) : u32le(b, at);
      out[o] = channel(v, m.r);
      out[o + 1] = channel(v, m.g);
      out[o + 2] = channel(v, m.b);
      out[o + 3] = m.a ? channel(v, m.a) : 255;
      if (bpp === 32 && !m.a && h.compression === 0) out[o + 3] = b[at + 3];
      if (bpp === 32 && !m.a && h.compression === 0 && b[at + 3] !== 0) alphaUsed = true;
    }
  }
  if (bpp === 32 && !alphaUsed) for (let i = 3; i < out.length; i += 4) out[i] = 255;
  return { data: out, width: w, height: ht };
}

/** 24-bit bottom-up BI_RGB: what every reader opens. Alpha must be flattened by the caller. */
export function encodeBmp(px: Pixels): Uint8Array {
  const stride = Math.ceil((px.width * 3) / 4) * 4;
  const size = 54 + stride * px.height;
  const w = new ByteWriter(size);
  w.text("BM");
  w.u32le(size);
  w.u32le(0);
  w.u32le(54);
  w.u32le(40);
  w.u32le(px.width);
  w.u32le(px.height);
  w.u16le(1);
  w.u16le(24);
  w.u32le(0);
  w.u32le(stride * px.height);
  w.u32le(2835); // 72 dpi
  w.u32le(2835);
  w.u32le(0);
  w.u32le(0);
  const row = new Uint8Array(stride);
  for (let y = px.height - 1; y >= 0; y--) {
    for (let x = 0; x < px.width; x++) {
      const o = (y * px.width + x) * 4;
      row[x * 3] = px.data[o + 2];
      row[x * 3 + 1] = px.data[o + 1];
      row[x * 3 + 2] = px.data[o];
    }
    w.bytes(row);
  }
  return w.result();
}
