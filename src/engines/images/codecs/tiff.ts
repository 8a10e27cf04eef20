import { zlibSync } from "fflate";
import * as utifModule from "utif2";
import { EngineError } from "../../errors";
import { ByteWriter } from "../util/bytes";
import type { Pixels } from "../types";

// TIFF: utif2 reads (first page; every compression it knows, 1..16 bits, CMYK,
// palette), plus our own YCbCr-subsampled conversion, which utif2 leaves raw.
// Writing is ours: Deflate with the horizontal predictor, which utif2 lacks.

const corrupt = (why: string) => new EngineError("corrupt", `The TIFF could not be decoded: ${why}.`);

// utif2 is CommonJS: bundlers expose it as the namespace, workerd's test loader under `default`.
const UTIF = (utifModule as unknown as { default?: typeof utifModule }).default ?? utifModule;
type Ifd = utifModule.IFD;

const tag = (ifd: Ifd, n: number): number[] | undefined => ifd[`t${n}`] as number[] | undefined;

export interface TiffImage {
  pixels: Pixels;
  orientation: number;
  icc?: Uint8Array;
  pages: number;
}

/**
 * YCbCr (photometric 6) with chroma subsampling: data units of h*v luma
 * samples then Cb, Cr. utif2 places strip k at k * rowsPerStrip * width * 3
 * (the unsubsampled size), so each strip's units start there.
 */
function ycbcrToRgba(ifd: Ifd, data: Uint8Array): Uint8Array {
  const w = ifd.width,
    h = ifd.height;
  const [sh, sv] = tag(ifd, 530) ?? [2, 2];
  const rps = Math.min(tag(ifd, 278)?.[0] ?? h, h);
  const luma = (tag(ifd, 529) as unknown as number[][] | undefined)?.map(([n, d]) => n / d) ?? [0.299, 0.587, 0.114];
  const [lr, lg, lb] = luma;
  // Clamped: the colour conversion overshoots 0..255 at saturated edges.
  const out = new Uint8ClampedArray(w * h * 4);
  const blocksX = Math.ceil(w / sh);
  const unit = sh * sv + 2;
  for (let by = 0; by < Math.ceil(h / sv); by++) {
    const strip = Math.floor((by * sv) / rps);
    const rowInStrip = (by * sv - strip * rps) / sv;
    let at = strip * rps * w * 3 + rowInStrip * blocksX * unit;
    for (let bx = 0; bx < blocksX; bx++, at += unit) {
      if (at + unit > data.length) throw corrupt("the YCbCr data is cut short");
      const cb = data[at + sh * sv] - 128;
      const cr = data[at + sh * sv + 1] - 128;
      for (let j = 0; j < sv; j++) {
        for (let i = 0; i < sh; i++) {
          const x = bx * sh + i,
            y = by * sv + j;
          if (x >= w || y >= h) continue;
          const Y = data[at + j * sh + i];
          const r = Y + cr * (2 - 2 * lr);
          const b = Y + cb * (2 - 2 * lb);
          const g = (Y - lb * b - lr * r) / lg;
          const o = (y * w + x) * 4;
          out[o] = r;
          out[o + 1] = g;
          out[o + 2] = b;
          out[o + 3] = 255;
        }
      }
    }
  }
  return new Uint8Array(out.buffer);
}

export function tiffPages(b: Uint8Array): Ifd[] {
  try {
    return UTIF.decode(b.slice().buffer);
  } catch {
    throw corrupt("the directory structure is damaged");
  }
}

export function decodeTiff(b: Uint8Array): TiffImage {
  const ifds = tiffPages(b);
  const ifd = ifds.find((i) => tag(i, 256) && tag(i, 257));
  if (!ifd) throw corrupt("no image in the file");
  const compression = tag(ifd, 259)?.[0] ?? 1;
  if (compression === 6)
    throw corrupt("old-style JPEG-in-TIFF (compression 6) is deprecated and not supported; re-save the file with JPEG (7) or Deflate compression");
  const buffer = b.slice().buffer;
  try {
    UTIF.decodeImage(buffer, ifd);
  } catch (err) {
    throw corrupt(err instanceof Error ? err.message : "the image data is damaged");
  }
  if (!ifd.width || !ifd.height || !ifd.data) throw corrupt("the image data is damaged");
  const photometric = tag(ifd, 262)?.[0];
  const sub = tag(ifd, 530);
  let rgba: Uint8Array;
  if (photometric === 6 && compression !== 7 && sub && (sub[0] > 1 || sub[1] > 1)) {
    rgba = ycbcrToRgba(ifd, ifd.data);
  } else {
    try {
      rgba = UTIF.toRGBA8(ifd);
    } catch {
      throw corrupt("unsupported sample layout");
    }
  }
  if (rgba.length < ifd.width * ifd.height * 4) throw corrupt("the image data is cut short");
  const iccTag = ifd.t34675;
  return {
    pixels: { data: rgba, width: ifd.width, height: ifd.height },
    orientation: tag(ifd, 274)?.[0] ?? 1,
    icc: iccTag instanceof Uint8Array ? iccTag : Array.isArray(iccTag) ? Uint8Array.from(iccTag as number[]) : undefined,
    pages: ifds.filter((i) => tag(i, 256)).length,
  };
}

// --- writer ---------------------------------------------------------------

const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;
const UNDEFINED = 7;

interface Entry {
  tag: number;
  type: number;
  values: number[] | Uint8Array;
}

/** Rows per strip so one strip is about 64 KiB before compression (the TIFF spec's advice). */
function rowsPerStrip(width: number, samples: number): number {
  return Math.max(1, Math.floor(65536 / (width * samples)));
}

/**
 * Deflate TIFF (compression 8, predictor 2), RGB or RGBA with unassociated
 * alpha, little-endian, with the ICC profile when given.
 */
export function encodeTiff(px: Pixels, opts: { alpha: boolean; icc?: Uint8Array }): Uint8Array {
  const samples = opts.alpha ? 4 : 3;
  const rps = rowsPerStrip(px.width, samples);
  const strips: Uint8Array[] = [];
  const rowBytes = px.width * samples;
  for (let y0 = 0; y0 < px.height; y0 += rps) {
    const rows = Math.min(rps, px.height - y0);
    const raw = new Uint8Array(rows * rowBytes);
    for (let r = 0; r < rows; r++) {
      const src = (y0 + r) * px.width * 4;
      const dst = r * rowBytes;
      for (let x = 0; x < px.width; x++) {
        for (let c = 0; c < samples; c++) raw[dst + x * samples + c] = px.data[src + x * 4 + c];
      }
      // Horizontal differencing (predictor 2), right to left so each uses the original left neighbour.
      for (let i = rowBytes - 1; i >= samples; i--) raw[dst + i] = (raw[dst + i] - raw[dst + i - samples]) & 0xff;
    }
    strips.push(zlibSync(raw, { level: 6 }));
  }
  const entries: Entry[] = [
    { tag: 256, type: LONG, values: [px.width] },
    { tag: 257, type: LONG, values: [px.height] },
    { tag: 258, type: SHORT, values: new Array<number>(samples).fill(8) },
    { tag: 259, type: SHORT, values: [8] },
    { tag: 262, type: SHORT, values: [2] },
    { tag: 273, type: LONG, values: strips.map(() => 0) },
    { tag: 277, type: SHORT, values: [samples] },
    { tag: 278, type: LONG, values: [rps] },
    { tag: 279, type: LONG, values: strips.map((s) => s.length) },
    { tag: 282, type: RATIONAL, values: [72, 1] },
    { tag: 283, type: RATIONAL, values: [72, 1] },
    { tag: 284, type: SHORT, values: [1] },
    { tag: 296, type: SHORT, values: [2] },
    { tag: 317, type: SHORT, values: [2] },
  ];
  if (opts.alpha) entries.push({ tag: 338, type: SHORT, values: [2] });
  if (opts.icc) entries.push({ tag: 34675, type: UNDEFINED, values: opts.icc });
  entries.sort((a, b) => a.tag - b.tag);
  return layout(entries, strips);
}

const SIZE: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [RATIONAL]: 8, [UNDEFINED]: 1 };

function writeValue(w: ByteWriter, type: number, v: number): void {
  if (type === SHORT) w.u16le(v);
  else if (type === LONG) w.u32le(v);
  else w.u8(v);
}

function layout(entries: Entry[], strips: Uint8Array[]): Uint8Array {
  const ifdSize = 2 + entries.length * 12 + 4;
  // Out-of-line values follow the IFD, then the strips.
  let extra = 8 + ifdSize;
  const offsets = new Map<Entry, number>();
  for (const e of entries) {
    const bytes = (e.type === RATIONAL ? e.values.length / 2 : e.values.length) * SIZE[e.type];
    if (bytes > 4) {
      offsets.set(e, extra);
      extra += bytes + (bytes & 1);
    }
  }
  const stripOffsets: number[] = [];
  let at = extra;
  for (const s of strips) {
    stripOffsets.push(at);
    at += s.length;
  }
  const so = entries.find((e) => e.tag === 273);
  if (so) so.values = stripOffsets;
  const w = new ByteWriter(at);
  w.text("II");
  w.u16le(42);
  w.u32le(8);
  w.u16le(entries.length);
  for (const e of entries) {
    const count = e.type === RATIONAL ? e.values.length / 2 : e.values.length;
    w.u16le(e.tag);
    w.u16le(e.type);
    w.u32le(count);
    const off = offsets.get(e);
    if (off !== undefined) {
      w.u32le(off);
      continue;
    }
    const start = w.length;
    for (const v of e.values) writeValue(w, e.type, v);
    while (w.length < start + 4) w.u8(0);
  }
  w.u32le(0);
  for (const e of entries) {
    if (!offsets.has(e)) continue;
    if (e.type === RATIONAL) for (const v of e.values) w.u32le(v);
    else if (e.type === UNDEFINED) w.bytes(e.values as Uint8Array);
    else for (const v of e.values) writeValue(w, e.type, v);
    if (w.length & 1) w.u8(0);
  }
  for (const s of strips) w.bytes(s);
  return w.result();
}
