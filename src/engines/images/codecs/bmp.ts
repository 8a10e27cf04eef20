import { EngineError } from "../../errors";
import { ByteWriter, i32le, u16le, u32le } from "../util/bytes";
import type { Pixels } from "../types";
import { rowPlacement, swapsAxes } from "../pixels/orientation";
import { memoryProbe } from "../memory/probe";

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

/** RLE4/RLE8 files are decoded to one palette index a pixel before any row is read. */
export function bmpIsRle(b: Uint8Array): boolean {
  const c = readBmpHeader(b).compression;
  return c === 1 || c === 2;
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

/**
 * A BMP opened for reading rows top to bottom, in any slices: what the whole
 * decode and the band source (bmp/band-source.ts) both use. Only RLE files
 * hold something the size of the picture (one palette index a pixel).
 */
export class BmpRows {
  readonly width: number;
  readonly height: number;
  private readonly h: BmpHeader;
  private readonly pal: Uint8Array | null;
  private readonly masks: Masks | null;
  private readonly rle: Uint8Array | null;
  private readonly stride: number;
  /** 32-bit BI_RGB files usually leave the fourth byte 0: it is alpha only when some pixel sets it. */
  private readonly fourthByteIsAlpha: boolean;

  constructor(private readonly b: Uint8Array) {
    const h = readBmpHeader(b);
    const { width: w, height: ht, bpp } = h;
    if (w <= 0 || ht <= 0) throw corrupt("zero size");
    if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw corrupt(`${bpp} bits per pixel is not a BMP depth`);
    if (![0, 1, 2, 3, 6].includes(h.compression)) throw corrupt("embedded JPEG/PNG bitmaps are not supported");
    this.h = h;
    this.width = w;
    this.height = ht;
    this.stride = Math.ceil((w * bpp) / 32) * 4;
    const isRle = h.compression === 1 || h.compression === 2;
    this.pal = isRle || bpp <= 8 ? palette(b, h) : null;
    this.masks = !isRle && bpp > 8 ? masksOf(b, h) : null;
    this.rle = isRle ? unRle(b, h) : null;
    if (!isRle && h.dataOffset + this.stride * (ht - 1) + Math.ceil((w * bpp) / 8) > b.length) throw corrupt("the pixel data is cut short");
    this.fourthByteIsAlpha = bpp === 32 && h.compression === 0 && this.masks?.a === 0 && this.anyFourthByteSet();
  }

  /** Some pixel may be translucent (an alpha mask, or a 32-bit file whose fourth byte is used). */
  get mayHaveAlpha(): boolean {
    return (this.masks?.a ?? 0) !== 0 || this.fourthByteIsAlpha;
  }

  private anyFourthByteSet(): boolean {
    const { b, h, stride } = this;
    for (let s = 0; s < h.height; s++) {
      const row = h.dataOffset + s * stride;
      for (let x = 0; x < h.width; x++) if (b[row + x * 4 + 3] !== 0) return true;
    }
    return false;
  }

  /** Upright rows y0..y1 (exclusive) as RGBA. */
  rows(y0: number, y1: number): Uint8Array {
    const w = this.width;
    const out = new Uint8Array(w * (y1 - y0) * 4);
    for (let y = y0; y < y1; y++) this.row(y, out, (y - y0) * w * 4);
    return out;
  }

  private row(y: number, out: Uint8Array, o: number): void {
    const { b, h, pal, w } = { b: this.b, h: this.h, pal: this.pal, w: this.width };
    // Rows are stored bottom-up unless the height was negative.
    const s = h.topDown ? y : this.height - 1 - y;
    if (this.rle) {
      const idx = this.rle;
      for (let x = 0; x < w; x++, o += 4) {
        const c = idx[s * w + x] * 3;
        out[o] = (pal as Uint8Array)[c];
        out[o + 1] = (pal as Uint8Array)[c + 1];
        out[o + 2] = (pal as Uint8Array)[c + 2];
        out[o + 3] = 255;
      }
      return;
    }
    const bpp = h.bpp;
    const row = h.dataOffset + s * this.stride;
    if (pal) {
      for (let x = 0; x < w; x++, o += 4) {
        const bit = x * bpp;
        const c = ((b[row + (bit >> 3)] >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1)) * 3;
        out[o] = pal[c];
        out[o + 1] = pal[c + 1];
        out[o + 2] = pal[c + 2];
        out[o + 3] = 255;
      }
      return;
    }
    const m = this.masks as Masks;
    for (let x = 0; x < w; x++, o += 4) {
      const at = row + (x * bpp) / 8;
      const v = bpp === 16 ? u16le(b, at) : bpp === 24 ? b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) : u32le(b, at);
      out[o] = channel(v, m.r);
      out[o + 1] = channel(v, m.g);
      out[o + 2] = channel(v, m.b);
      out[o + 3] = m.a ? channel(v, m.a) : this.fourthByteIsAlpha ? b[at + 3] : 255;
    }
  }
}

export function decodeBmp(b: Uint8Array): Pixels {
  const rows = new BmpRows(b);
  return { data: rows.rows(0, rows.height), width: rows.width, height: rows.height };
}

/** Bytes of a 24-bit BMP of this size (rows padded to 4 bytes). */
export function bmpFileSize(width: number, height: number): number {
  return 54 + Math.ceil((width * 3) / 4) * 4 * height;
}

/**
 * A 24-bit bottom-up BI_RGB file (what every reader opens) written into a
 * buffer of its final size as rows arrive in stored order: `orientation`
 * places each pixel where the upright picture has it, so no upright copy is
 * ever made. Alpha must be flattened by the caller.
 */
export class BmpRowWriter {
  private readonly out: Uint8Array;
  private readonly stride: number;
  private readonly ow: number;
  private readonly oh: number;
  private y = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly orientation = 1,
  ) {
    const swap = swapsAxes(orientation);
    this.ow = swap ? height : width;
    this.oh = swap ? width : height;
    this.stride = Math.ceil((this.ow * 3) / 4) * 4;
    const size = bmpFileSize(this.ow, this.oh);
    const w = new ByteWriter(54);
    w.text("BM");
    w.u32le(size);
    w.u32le(0);
    w.u32le(54);
    w.u32le(40);
    w.u32le(this.ow);
    w.u32le(this.oh);
    w.u16le(1);
    w.u16le(24);
    w.u32le(0);
    w.u32le(this.stride * this.oh);
    w.u32le(2835); // 72 dpi
    w.u32le(2835);
    w.u32le(0);
    w.u32le(0);
    this.out = new Uint8Array(size);
    this.out.set(w.result());
  }

  async write(rows: Pixels): Promise<void> {
    this.place(rows);
  }

  async finish(): Promise<Uint8Array> {
    return this.result();
  }

  place(rows: Pixels): void {
    const { out, ow, oh, stride } = this;
    const d = rows.data;
    for (let r = 0; r < rows.height; r++, this.y++) {
      const { base, step } = rowPlacement(this.orientation, this.width, this.height, this.y);
      for (let x = 0, i = base, s = r * this.width * 4; x < this.width; x++, i += step, s += 4) {
        const uy = (i / ow) | 0;
        const o = 54 + (oh - 1 - uy) * stride + (i - uy * ow) * 3;
        out[o] = d[s + 2];
        out[o + 1] = d[s + 1];
        out[o + 2] = d[s];
      }
    }
  }

  result(): Uint8Array {
    if (this.y !== this.height) throw new Error(`BMP writer: ${this.y} of ${this.height} rows written`);
    memoryProbe.sample();
    return this.out;
  }
}

/** A whole picture as a 24-bit BMP. Alpha must be flattened by the caller. */
export function encodeBmp(px: Pixels): Uint8Array {
  const w = new BmpRowWriter(px.width, px.height);
  w.place(px);
  return w.result();
}
