import { GIFEncoder } from "gifenc";
import { corrupt } from "../gif/corrupt";
import { GifLzwStream } from "../gif/lzw-stream";
import { u16le } from "../util/bytes";
import { PaletteBuilder, Remapper } from "../pixels/quantize";
import { rowPlacement, swapsAxes } from "../pixels/orientation";
import { memoryProbe } from "../memory/probe";
import type { Pixels } from "../types";

// GIF: our own reader (the format is small and the npm decoders either skip
// validation or composite every frame), gifenc for writing with a palette from
// our quantiser. Animated input yields its first frame; the caller says so.

export interface GifImage {
  pixels: Pixels;
  frames: number;
}

function skipSubBlocks(b: Uint8Array, at: number): number {
  while (at < b.length) {
    const size = b[at++];
    if (size === 0) return at;
    at += size;
  }
  return -1;
}

function readPalette(b: Uint8Array, at: number, flags: number): [Uint8Array | null, number] {
  if (!(flags & 0x80)) return [null, at];
  const n = 3 * (1 << ((flags & 7) + 1));
  if (at + n > b.length) throw corrupt("the colour table is cut short");
  return [b.subarray(at, at + n), at + n];
}

/** The first frame of a GIF: its palette indices, where it sits on the canvas, and how many frames follow. */
export interface GifFrame {
  /** Logical screen size. */
  width: number;
  height: number;
  rect: FrameRect;
  /** One palette index a pixel, in the frame's stored row order (interlaced or not). */
  idx: Uint8Array;
  table: Uint8Array;
  transparent: number;
  frames: number;
  /** Offset of the frame's LZW minimum code size byte (its data sub-blocks follow). */
  dataAt: number;
}

/**
 * Reads the first frame's indices (one byte a pixel) and counts the frames;
 * with `countOnly` the frames are counted and no LZW is decoded (`idx` empty).
 */
export function readGifFrame(b: Uint8Array, countOnly = false): GifFrame {
  if (b.length < 13) throw corrupt("the header is cut short");
  const width = u16le(b, 6);
  const height = u16le(b, 8);
  if (!width || !height) throw corrupt("zero screen size");
  let [global, at] = readPalette(b, 13, b[10]);
  let transparent = -1;
  let frames = 0;
  let first: Omit<GifFrame, "frames"> | null = null;
  while (at < b.length) {
    const kind = b[at++];
    if (kind === 0x3b) break;
    if (kind === 0x21) {
      const label = b[at++];
      // Graphic control: block size, packed fields (bit 0: a transparent index is given), delay (2 bytes), that index.
      if (label === 0xf9 && !first && b[at] >= 4) transparent = b[at + 1] & 1 ? b[at + 4] : -1;
      at = skipSubBlocks(b, at);
      if (at < 0) break;
      continue;
    }
    if (kind !== 0x2c) {
      if (first) break; // trailing junk after a good first frame: browsers show it
      throw corrupt("unexpected block");
    }
    if (at + 9 > b.length) throw corrupt("an image header is cut short");
    frames++;
    const fx = u16le(b, at),
      fy = u16le(b, at + 2),
      fw = u16le(b, at + 4),
      fh = u16le(b, at + 6);
    const flags = b[at + 8];
    let local: Uint8Array | null;
    [local, at] = readPalette(b, at + 9, flags);
    if (first) {
      at = skipSubBlocks(b, at + 1);
      if (at < 0) break;
      continue;
    }
    const table = local ?? global;
    if (!table) throw corrupt("no colour table");
    const rect = { fx, fy, fw, fh, interlaced: (flags & 0x40) !== 0 };
    if (countOnly) {
      first = { width, height, rect, idx: new Uint8Array(0), table, transparent, dataAt: at };
      at = skipSubBlocks(b, at + 1);
      if (at < 0) break;
      continue;
    }
    const dataAt = at;
    const idx = new Uint8Array(fw * fh);
    const got = new GifLzwStream(b, dataAt, idx.length).read(idx);
    at = skipSubBlocks(b, at + 1);
    if (got < fw * fh && got === 0) throw corrupt("the first image has no data");
    first = { width, height, rect, idx, table, transparent, dataAt };
  }
  if (!first) throw corrupt("no image in the file");
  return { ...first, frames };
}

/** Whether the first frame is interlaced (its indices are then decoded whole, one byte a pixel); a damaged file counts as whole. */
export function gifInterlaced(b: Uint8Array): boolean {
  try {
    return readGifFrame(b, true).rect.interlaced;
  } catch {
    return true;
  }
}

/** First frame composited on a transparent canvas of the logical screen size, plus the frame count. */
export function decodeGif(b: Uint8Array): GifImage {
  const frame = readGifFrame(b);
  return { pixels: { data: gifCanvasRows(frame, 0, frame.height), width: frame.width, height: frame.height }, frames: frame.frames };
}

interface FrameRect {
  fx: number;
  fy: number;
  fw: number;
  fh: number;
  interlaced: boolean;
}

/** GIF interlacing stores rows in four passes: 0,8,16.. then 4,12.. then 2,6.. then 1,3.. */
function interlacedRow(i: number, h: number): number {
  const passes: [number, number][] = [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ];
  for (const [start, step] of passes) {
    const n = Math.ceil(Math.max(0, h - start) / step);
    if (i < n) return start + i * step;
    i -= n;
  }
  return i;
}

/** For each frame row, top to bottom, the row of `idx` that holds it. */
const storedRowOf = new WeakMap<GifFrame, Int32Array>();
function storedRows(f: GifFrame): Int32Array {
  let rows = storedRowOf.get(f);
  if (rows) return rows;
  rows = new Int32Array(f.rect.fh);
  for (let i = 0; i < f.rect.fh; i++) rows[f.rect.interlaced ? interlacedRow(i, f.rect.fh) : i] = i;
  storedRowOf.set(f, rows);
  return rows;
}

/** Canvas rows y0..y1 (exclusive) as RGBA: the frame's pixels, transparent elsewhere. */
export function gifCanvasRows(f: GifFrame, y0: number, y1: number): Uint8Array {
  const stored = storedRows(f);
  return paintCanvasRows(f, f.idx, (i) => stored[i] * f.rect.fw, y0, y1);
}

/** Canvas rows y0..y1 as RGBA, frame row i's palette indices starting at idx[rowAt(i)] (whole frame or a band of it). */
export function paintCanvasRows(
  f: Pick<GifFrame, "width" | "rect" | "table" | "transparent">,
  idx: Uint8Array,
  rowAt: (frameRow: number) => number,
  y0: number,
  y1: number,
): Uint8Array {
  const { width: w, rect: r, table, transparent } = f;
  const out = new Uint8Array(w * (y1 - y0) * 4);
  const colours = table.length / 3;
  for (let y = Math.max(y0, r.fy); y < Math.min(y1, r.fy + r.fh); y++) {
    const from = rowAt(y - r.fy);
    for (let x = 0; x < r.fw; x++) {
      const px = r.fx + x;
      if (px >= w) break;
      const c = idx[from + x];
      if (c === transparent || c >= colours) continue;
      const o = ((y - y0) * w + px) * 4;
      out[o] = table[c * 3];
      out[o + 1] = table[c * 3 + 1];
      out[o + 2] = table[c * 3 + 2];
      out[o + 3] = 255;
    }
  }
  return out;
}

/** GIF has 1-bit transparency: alpha under 128 becomes one transparent colour (0,0,0,0), the rest opaque. */
function binaryAlpha(px: Pixels): Pixels {
  const data = new Uint8Array(px.data.length);
  for (let o = 0; o < data.length; o += 4) {
    if (px.data[o + 3] < 128) continue;
    data[o] = px.data[o];
    data[o + 1] = px.data[o + 1];
    data[o + 2] = px.data[o + 2];
    data[o + 3] = 255;
  }
  return { data, width: px.width, height: px.height };
}

/**
 * A still GIF written from rows in two passes (transcode sends the rows
 * twice): the first builds the palette with our quantiser, the second maps
 * each row (Floyd–Steinberg carried across bands, so the indices are those of
 * the whole picture) and places the indices upright by `orientation`. Memory:
 * one index a pixel, the histogram, and the file.
 */
export class GifRowWriter {
  readonly passes = 2;
  private readonly builder: PaletteBuilder;
  private remapper: Remapper | null = null;
  private palette: Uint8Array | null = null;
  private readonly indices: Uint8Array;
  private readonly ow: number;
  private y = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly quality = 100,
    private readonly orientation = 1,
  ) {
    this.builder = new PaletteBuilder(width, height, 256);
    this.indices = new Uint8Array(width * height);
    this.ow = swapsAxes(orientation) ? height : width;
  }

  async write(rows: Pixels): Promise<void> {
    this.place(rows);
  }

  place(rows: Pixels): void {
    const binary = binaryAlpha(rows);
    if (!this.remapper) {
      this.builder.add(binary);
      return;
    }
    const mapped = this.remapper.map(binary);
    for (let r = 0; r < rows.height; r++, this.y++) {
      const { base, step } = rowPlacement(this.orientation, this.width, this.height, this.y);
      for (let x = 0, i = base, s = r * this.width; x < this.width; x++, i += step) this.indices[i] = mapped[s + x];
    }
  }

  /** End of the first pass: the palette is built from every row seen. */
  endPass(): void {
    const built = this.builder.build({ quality: this.quality });
    this.palette = built.colors;
    this.remapper = new Remapper(this.width, built.colors, true, built.exact);
  }

  async finish(): Promise<Uint8Array> {
    return this.result();
  }

  result(): Uint8Array {
    if (!this.palette || this.y !== this.height) throw new Error(`GIF writer: ${this.y} of ${this.height} rows mapped`);
    const colors = this.palette;
    const palette: number[][] = [];
    let transparentIndex = -1;
    for (let i = 0; i < colors.length / 4; i++) {
      if (colors[i * 4 + 3] < 128 && transparentIndex < 0) transparentIndex = i;
      palette.push([colors[i * 4], colors[i * 4 + 1], colors[i * 4 + 2]]);
    }
    // Room for LZW of a grainy photo (0.7 bytes a pixel) up front: gifenc grows
    // its buffer by copying, and the view below is taken without a copy.
    const gif = GIFEncoder({ initialCapacity: Math.max(4096, Math.ceil(this.indices.length * 0.75)) });
    gif.writeFrame(this.indices, this.ow, this.indices.length / this.ow, {
      palette,
      repeat: -1,
      transparent: transparentIndex >= 0,
      transparentIndex: Math.max(0, transparentIndex),
    });
    gif.finish();
    memoryProbe.sample();
    return gif.bytesView();
  }
}

/** A still GIF: palette from our quantiser (dithered), 1-bit transparency for alpha < 128. */
export function encodeGif(px: Pixels, quality = 100): Uint8Array {
  const w = new GifRowWriter(px.width, px.height, quality);
  w.place(px);
  w.endPass();
  w.place(px);
  return w.result();
}
