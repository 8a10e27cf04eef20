import { GIFEncoder } from "gifenc";
import { EngineError } from "../../errors";
import { u16le } from "../util/bytes";
import { quantize } from "../pixels/quantize";
import type { Pixels } from "../types";

// GIF: our own reader (the format is small and the npm decoders either skip
// validation or composite every frame), gifenc for writing with a palette from
// our quantiser. Animated input yields its first frame; the caller says so.

export interface GifImage {
  pixels: Pixels;
  frames: number;
}

const corrupt = (why: string) => new EngineError("corrupt", `The GIF could not be decoded: ${why}.`);

/** Concatenates the data sub-blocks that start at `at`; returns [data, next offset]. */
function subBlocks(b: Uint8Array, at: number): [Uint8Array, number] {
  const parts: Uint8Array[] = [];
  let n = 0;
  while (true) {
    if (at >= b.length) throw corrupt("the data ends inside an image (truncated file)");
    const size = b[at++];
    if (size === 0) break;
    if (at + size > b.length) throw corrupt("the data ends inside an image (truncated file)");
    parts.push(b.subarray(at, at + size));
    n += size;
    at += size;
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return [out, at];
}

function skipSubBlocks(b: Uint8Array, at: number): number {
  while (at < b.length) {
    const size = b[at++];
    if (size === 0) return at;
    at += size;
  }
  return -1;
}

/** Variable-width LZW as GIF uses it; returns how many indices were produced. */
function lzw(data: Uint8Array, minSize: number, out: Uint8Array): number {
  if (minSize < 2 || minSize > 8) throw corrupt("bad LZW code size");
  const clear = 1 << minSize;
  const end = clear + 1;
  const prefix = new Int16Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const stack = new Uint8Array(4097);
  for (let i = 0; i < clear; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    first[i] = i;
  }
  let size = minSize + 1;
  let next = end + 1;
  let prev = -1;
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < data.length && o < out.length; ) {
    while (bits < size && i < data.length) {
      acc |= data[i++] << bits;
      bits += 8;
    }
    if (bits < size) break;
    const code = acc & ((1 << size) - 1);
    acc >>>= size;
    bits -= size;
    if (code === clear) {
      size = minSize + 1;
      next = end + 1;
      prev = -1;
      continue;
    }
    if (code === end) break;
    let c = code;
    let sp = 0;
    if (prev === -1) {
      if (code >= clear) throw corrupt("bad LZW stream");
      out[o++] = code;
      prev = code;
      continue;
    }
    if (code > next || (code === next && next >= 4096)) throw corrupt("bad LZW stream");
    if (code === next) {
      stack[sp++] = first[prev];
      c = prev;
    }
    while (c >= clear) {
      stack[sp++] = suffix[c];
      c = prefix[c];
    }
    stack[sp++] = c;
    if (next < 4096) {
      prefix[next] = prev;
      suffix[next] = c;
      first[next] = first[prev];
      next++;
      if (next === 1 << size && size < 12) size++;
    }
    while (sp > 0 && o < out.length) out[o++] = stack[--sp];
    prev = code;
  }
  return o;
}

function readPalette(b: Uint8Array, at: number, flags: number): [Uint8Array | null, number] {
  if (!(flags & 0x80)) return [null, at];
  const n = 3 * (1 << ((flags & 7) + 1));
  if (at + n > b.length) throw corrupt("the colour table is cut short");
  return [b.subarray(at, at + n), at + n];
}

/** First frame composited on a transparent canvas of the logical screen size, plus the frame count. */
export function decodeGif(b: Uint8Array): GifImage {
  if (b.length < 13) throw corrupt("the header is cut short");
  const width = u16le(b, 6);
  const height = u16le(b, 8);
  if (!width || !height) throw corrupt("zero screen size");
  let [global, at] = readPalette(b, 13, b[10]);
  let transparent = -1;
  let frames = 0;
  let pixels: Pixels | null = null;
  while (at < b.length) {
    const kind = b[at++];
    if (kind === 0x3b) break;
    if (kind === 0x21) {
      const label = b[at++];
      if (label === 0xf9 && !pixels && b[at] >= 4) transparent = b[at + 2] & 1 ? b[at + 4] : -1;
      at = skipSubBlocks(b, at);
      if (at < 0) break;
      continue;
    }
    if (kind !== 0x2c) {
      if (pixels) break; // trailing junk after a good first frame: browsers show it
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
    if (pixels) {
      at = skipSubBlocks(b, at + 1);
      if (at < 0) break;
      continue;
    }
    const table = local ?? global;
    if (!table) throw corrupt("no colour table");
    const minSize = b[at];
    const [data, after] = subBlocks(b, at + 1);
    at = after;
    const idx = new Uint8Array(fw * fh);
    const got = lzw(data, minSize, idx);
    if (got < fw * fh && got === 0) throw corrupt("the first image has no data");
    pixels = composite(width, height, { fx, fy, fw, fh, interlaced: (flags & 0x40) !== 0 }, idx, table, transparent);
  }
  if (!pixels) throw corrupt("no image in the file");
  return { pixels, frames };
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

function composite(w: number, h: number, r: FrameRect, idx: Uint8Array, table: Uint8Array, transparent: number): Pixels {
  const out = new Uint8Array(w * h * 4);
  const colours = table.length / 3;
  for (let i = 0; i < r.fh; i++) {
    const y = r.fy + (r.interlaced ? interlacedRow(i, r.fh) : i);
    if (y >= h) continue;
    for (let x = 0; x < r.fw; x++) {
      const px = r.fx + x;
      if (px >= w) break;
      const c = idx[i * r.fw + x];
      if (c === transparent || c >= colours) continue;
      const o = (y * w + px) * 4;
      out[o] = table[c * 3];
      out[o + 1] = table[c * 3 + 1];
      out[o + 2] = table[c * 3 + 2];
      out[o + 3] = 255;
    }
  }
  return { data: out, width: w, height: h };
}

/** A still GIF: palette from our quantiser (dithered), 1-bit transparency for alpha < 128. */
export function encodeGif(px: Pixels, quality = 100): Uint8Array {
  const n = px.width * px.height;
  const binary = new Uint8Array(n * 4);
  let transparentSeen = false;
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    if (px.data[o + 3] < 128) {
      transparentSeen = true;
      continue; // stays 0,0,0,0: one colour for every transparent pixel
    }
    binary[o] = px.data[o];
    binary[o + 1] = px.data[o + 1];
    binary[o + 2] = px.data[o + 2];
    binary[o + 3] = 255;
  }
  const pal = quantize({ data: binary, width: px.width, height: px.height }, { maxColors: 256, quality, dither: true });
  const palette: number[][] = [];
  let transparentIndex = -1;
  for (let i = 0; i < pal.colors.length / 4; i++) {
    const a = pal.colors[i * 4 + 3];
    if (transparentSeen && a < 128 && transparentIndex < 0) transparentIndex = i;
    palette.push([pal.colors[i * 4], pal.colors[i * 4 + 1], pal.colors[i * 4 + 2]]);
  }
  const gif = GIFEncoder();
  gif.writeFrame(pal.indices, px.width, px.height, {
    palette,
    repeat: -1,
    transparent: transparentIndex >= 0,
    transparentIndex: Math.max(0, transparentIndex),
  });
  gif.finish();
  return gif.bytes();
}
