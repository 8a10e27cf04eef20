import { zlibSync } from "fflate";
import * as utifModule from "utif2";
import { EngineError } from "../../errors";
import { ByteWriter } from "../util/bytes";
import { memoryProbe } from "../memory/probe";
import { ByteParts, contiguous } from "../../bytes";
import type { Pixels } from "../types";

// TIFF: utif2 reads (first page; every compression it knows, 1..16 bits, CMYK,
// palette), plus our own YCbCr-subsampled conversion, which utif2 leaves raw.
// Writing is ours: Deflate with the horizontal predictor, which utif2 lacks.

export const corrupt = (why: string) => new EngineError("corrupt", `The TIFF could not be decoded: ${why}.`);

// utif2 is CommonJS: bundlers expose it as the namespace, workerd's test loader under `default`.
const UTIF = (utifModule as unknown as { default?: typeof utifModule }).default ?? utifModule;
type Ifd = utifModule.IFD;

/** A tag's values (`t<number>` keys in utif2's directories). */
export const tag = (ifd: Ifd, n: number): number[] | undefined => ifd[`t${n}`] as number[] | undefined;

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

/** The file as an ArrayBuffer starting at its first byte (TIFF offsets are file offsets); copied only when it is a view. */
export function fileBuffer(b: Uint8Array): ArrayBuffer {
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) return b.buffer;
  return b.slice().buffer;
}

export function tiffPages(b: Uint8Array): Ifd[] {
  try {
    return UTIF.decode(fileBuffer(b));
  } catch {
    throw corrupt("the directory structure is damaged");
  }
}

/** The first directory that holds an image, checked for what we cannot read. */
export function firstImage(ifds: Ifd[]): Ifd {
  const ifd = ifds.find((i) => tag(i, 256) && tag(i, 257));
  if (!ifd) throw corrupt("no image in the file");
  if ((tag(ifd, 259)?.[0] ?? 1) === 6)
    throw corrupt("old-style JPEG-in-TIFF (compression 6) is deprecated and not supported; re-save the file with JPEG (7) or Deflate compression");
  return ifd;
}

/** Decodes `ifd` (the whole image, or a directory narrowed to some strips) to RGBA. */
export function ifdToRgba(buffer: ArrayBuffer, ifd: Ifd): Pixels {
  const compression = tag(ifd, 259)?.[0] ?? 1;
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
  return { data: rgba.length === ifd.width * ifd.height * 4 ? rgba : rgba.subarray(0, ifd.width * ifd.height * 4), width: ifd.width, height: ifd.height };
}

/** utif2's own per-strip and per-tile step (not in its typings): decompress, then 16-bit byte order and the horizontal predictor. */
type Decompress = (
  img: Ifd,
  ifds: Ifd[],
  data: Uint8Array,
  off: number,
  len: number,
  cmpr: number,
  tgt: Uint8Array,
  toff: number,
  fo: number,
  w: number,
  h: number,
) => void;
const utifDecompress = (UTIF as unknown as { decode: { _decompress: Decompress } }).decode._decompress;

/**
 * One block of the file (a tile, or a strip) decompressed by utif2 into `tgt`
 * (w x h samples, zeroed first), predictor undone: what decodeImage does per
 * block. `ifd` must carry `isLE` (see withByteOrder).
 */
export function decompressBlock(ifd: Ifd, file: Uint8Array, off: number, len: number, tgt: Uint8Array, w: number, h: number): void {
  tgt.fill(0);
  try {
    utifDecompress(ifd, [], file, off, len, tag(ifd, 259)?.[0] ?? 1, tgt, 0, tag(ifd, 266)?.[0] ?? 1, w, h);
  } catch (err) {
    throw corrupt(err instanceof Error ? err.message : "the image data is damaged");
  }
}

/** Rows we decompressed ourselves: utif2's byte-order fix and predictor, in place (compression 1 copies nothing here). */
export function finishRows(ifd: Ifd, raw: Uint8Array, w: number, h: number): void {
  utifDecompress(ifd, [], raw, 0, 0, 1, raw, 0, 1, w, h);
}

/** A copy of `ifd` (never decoded itself) with the byte order utif2's per-block steps read, and its own photometric tag (JPEG blocks rewrite it). */
export function withByteOrder(ifd: Ifd, file: Uint8Array): Ifd {
  const photometric = tag(ifd, 262);
  return { ...ifd, isLE: file[0] === 0x49, ...(photometric ? { t262: [...photometric] } : {}) } as unknown as Ifd;
}

/** Decompressed rows (`raw`, as a block decoder leaves them) as RGBA, by utif2's conversion like the whole picture. */
export function rawRowsToRgba(ifd: Ifd, raw: Uint8Array, width: number, rows: number): Uint8Array {
  // Float samples are read through raw.buffer, so the rows must start it.
  const data = raw.byteOffset === 0 ? raw : raw.slice();
  let rgba: Uint8Array;
  try {
    rgba = UTIF.toRGBA8({ ...ifd, width, height: rows, t257: [rows], data } as Ifd);
  } catch {
    throw corrupt("unsupported sample layout");
  }
  if (rgba.length < width * rows * 4) throw corrupt("the image data is cut short");
  return rgba.length === width * rows * 4 ? rgba : rgba.subarray(0, width * rows * 4);
}

/** Whether photometric YCbCr is stored subsampled outside JPEG (our own conversion, laid out by strips: whole road only). */
export function subsampledYcbcr(ifd: Ifd): boolean {
  const sub = tag(ifd, 530);
  return tag(ifd, 262)?.[0] === 6 && (tag(ifd, 259)?.[0] ?? 1) !== 7 && !!sub && (sub[0] > 1 || sub[1] > 1);
}

/** What the first image's tags say besides its pixels. */
export function tiffFacts(ifds: Ifd[], ifd: Ifd): { orientation: number; icc?: Uint8Array; pages: number } {
  const iccTag = ifd.t34675;
  return {
    orientation: tag(ifd, 274)?.[0] ?? 1,
    icc: iccTag instanceof Uint8Array ? iccTag : Array.isArray(iccTag) ? Uint8Array.from(iccTag as number[]) : undefined,
    pages: ifds.filter((i) => tag(i, 256)).length,
  };
}

/** The first image's orientation tag, read from the directory alone. */
export function tiffOrientation(b: Uint8Array): number {
  const ifds = tiffPages(b);
  return tiffFacts(ifds, firstImage(ifds)).orientation;
}

export function decodeTiff(b: Uint8Array): TiffImage {
  const ifds = tiffPages(b);
  const ifd = firstImage(ifds);
  return { pixels: ifdToRgba(fileBuffer(b), ifd), ...tiffFacts(ifds, ifd) };
}

/** Rows a strip holds, and the strips' offsets and byte counts (undefined for tiled or plane-separated files). */
export function stripLayout(ifd: Ifd): { rps: number; offsets: number[]; counts: number[]; compression: number; rowBytes: number } | undefined {
  const offsets = tag(ifd, 273);
  const counts = tag(ifd, 279);
  if (tag(ifd, 322) || !offsets || !counts || offsets.length !== counts.length || (tag(ifd, 284)?.[0] ?? 1) === 2) return undefined;
  const width = tag(ifd, 256)?.[0] ?? 0;
  const height = tag(ifd, 257)?.[0] ?? 0;
  const bits = (tag(ifd, 258)?.[0] ?? 1) * (tag(ifd, 277)?.[0] ?? 1);
  return {
    rps: Math.min(tag(ifd, 278)?.[0] ?? height, height),
    offsets,
    counts,
    compression: tag(ifd, 259)?.[0] ?? 1,
    rowBytes: Math.ceil((width * bits) / 8),
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
 * alpha, little-endian, with the ICC profile when given, written from upright
 * rows top to bottom: each strip is compressed as soon as its rows are in, so
 * only compressed strips are kept (and handed to storage as they are).
 */
export class TiffStripWriter {
  private readonly samples: number;
  private readonly rps: number;
  private readonly strips: Uint8Array[] = [];
  private raw: Uint8Array;
  private rowsInStrip = 0;
  private y = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly opts: { alpha: boolean; icc?: Uint8Array },
  ) {
    this.samples = opts.alpha ? 4 : 3;
    this.rps = rowsPerStrip(width, this.samples);
    this.raw = new Uint8Array(this.rps * width * this.samples);
  }

  async write(rows: Pixels): Promise<void> {
    this.place(rows);
  }

  async finish(): Promise<ByteParts> {
    return this.result();
  }

  place(px: Pixels): void {
    const { samples, width } = this;
    const rowBytes = width * samples;
    for (let r = 0; r < px.height; r++) {
      const src = r * width * 4;
      const dst = this.rowsInStrip * rowBytes;
      const raw = this.raw;
      for (let x = 0; x < width; x++) for (let c = 0; c < samples; c++) raw[dst + x * samples + c] = px.data[src + x * 4 + c];
      // Horizontal differencing (predictor 2), right to left so each uses the original left neighbour.
      for (let i = rowBytes - 1; i >= samples; i--) raw[dst + i] = (raw[dst + i] - raw[dst + i - samples]) & 0xff;
      this.y++;
      if (++this.rowsInStrip === this.rps || this.y === this.height) this.flushStrip();
    }
  }

  private flushStrip(): void {
    this.strips.push(zlibSync(this.raw.subarray(0, this.rowsInStrip * this.width * this.samples), { level: 6 }));
    this.rowsInStrip = 0;
  }

  result(): ByteParts {
    if (this.y !== this.height) throw new Error(`TIFF writer: ${this.y} of ${this.height} rows written`);
    const { samples, strips, opts } = this;
    const entries: Entry[] = [
      { tag: 256, type: LONG, values: [this.width] },
      { tag: 257, type: LONG, values: [this.height] },
      { tag: 258, type: SHORT, values: new Array<number>(samples).fill(8) },
      { tag: 259, type: SHORT, values: [8] },
      { tag: 262, type: SHORT, values: [2] },
      { tag: 273, type: LONG, values: strips.map(() => 0) },
      { tag: 277, type: SHORT, values: [samples] },
      { tag: 278, type: LONG, values: [this.rps] },
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
}

/** A whole picture as a Deflate TIFF (see TiffStripWriter). */
export function encodeTiff(px: Pixels, opts: { alpha: boolean; icc?: Uint8Array }): Uint8Array {
  const w = new TiffStripWriter(px.width, px.height, opts);
  w.place(px);
  return contiguous(w.result());
}

const SIZE: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [RATIONAL]: 8, [UNDEFINED]: 1 };

function writeValue(w: ByteWriter, type: number, v: number): void {
  if (type === SHORT) w.u16le(v);
  else if (type === LONG) w.u32le(v);
  else w.u8(v);
}

/**
 * The file as pieces: header, directory and out-of-line values first (the
 * strips' sizes are known once they are all written), then the strips as
 * they are, never copied into one buffer.
 */
function layout(entries: Entry[], strips: Uint8Array[]): ByteParts {
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
  const w = new ByteWriter(extra);
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
  memoryProbe.sample();
  return new ByteParts([w.result(), ...strips]);
}
