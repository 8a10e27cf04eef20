import { Deflate, zlibSync } from "fflate";
import { ByteWriter } from "../util/bytes";
import { ByteParts, contiguous } from "../../bytes";
import { iccpChunk, pngChunk } from "../formats/metadata";
import { crc32 } from "../util/crc32";
import { memoryProbe } from "../memory/probe";
import type { RowSink } from "../memory/bands";
import type { Palette } from "../pixels/quantize";
import type { Pixels } from "../types";

// Our own PNG writer for pictures too big for oxipng in a Worker (its WASM
// heap needs ~27 bytes a pixel and seconds a megapixel): colour type reduced
// to what the pixels need (grey, RGB, palette, with or without alpha), the
// usual per-row adaptive filter choice, zlib level 9 for palettes, 6 for
// true colour, streamed row by row (PngRowWriter, PalettePngRowWriter: memory
// is a row or two plus the compressed output, and at most ONE_SHOT_BYTES of
// filtered rows; see IdatStream for why).

function ihdr(width: number, height: number, depth: number, colorType: number): Uint8Array {
  const w = new ByteWriter(13);
  w.u32be(width);
  w.u32be(height);
  w.u8(depth);
  w.u8(colorType);
  w.u8(0);
  w.u8(0);
  w.u8(0);
  return pngChunk("IHDR", w.result());
}

/**
 * Writes `row` filtered with filter `f` into `o` (after its filter byte) and
 * answers the score, the sum of |signed bytes|; stops early once the score
 * reaches `stop` (the row is then not the best). One tight loop a filter:
 * this runs for every byte of every PNG we write, five times.
 */
function filterRow(f: number, row: Uint8Array, prev: Uint8Array, bpp: number, o: Uint8Array, stop: number): number {
  o[0] = f;
  const n = row.length;
  const first = Math.min(bpp, n);
  let score = 0;
  let i = 0;
  // The first pixel has no left neighbour (a = c = 0): Sub is None, Average halves Up, Paeth is Up.
  for (; i < first; i++) {
    const v = (row[i] - (f === 0 || f === 1 ? 0 : f === 3 ? prev[i] >> 1 : prev[i])) & 0xff;
    o[i + 1] = v;
    score += v < 128 ? v : 256 - v;
    if (score >= stop) return score;
  }
  switch (f) {
    case 0:
      for (; i < n; i++) {
        const v = row[i];
        o[i + 1] = v;
        score += v < 128 ? v : 256 - v;
        if (score >= stop) return score;
      }
      break;
    case 1:
      for (; i < n; i++) {
        const v = (row[i] - row[i - bpp]) & 0xff;
        o[i + 1] = v;
        score += v < 128 ? v : 256 - v;
        if (score >= stop) return score;
      }
      break;
    case 2:
      for (; i < n; i++) {
        const v = (row[i] - prev[i]) & 0xff;
        o[i + 1] = v;
        score += v < 128 ? v : 256 - v;
        if (score >= stop) return score;
      }
      break;
    case 3:
      for (; i < n; i++) {
        const v = (row[i] - ((row[i - bpp] + prev[i]) >> 1)) & 0xff;
        o[i + 1] = v;
        score += v < 128 ? v : 256 - v;
        if (score >= stop) return score;
      }
      break;
    default:
      for (; i < n; i++) {
        const a = row[i - bpp];
        const b = prev[i];
        const c = prev[i - bpp];
        const p = a + b - c;
        const pa = p > a ? p - a : a - p;
        const pb = p > b ? p - b : b - p;
        const pc = p > c ? p - c : c - p;
        const v = (row[i] - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
        o[i + 1] = v;
        score += v < 128 ? v : 256 - v;
        if (score >= stop) return score;
      }
  }
  return score;
}

/** Filters one row with each of the five filters; keeps the one with the smallest sum of |signed bytes|. */
function bestFilter(row: Uint8Array, prev: Uint8Array, bpp: number, out: Uint8Array[]): Uint8Array {
  let best = out[0];
  let bestScore = Infinity;
  for (let f = 0; f < 5; f++) {
    const score = filterRow(f, row, prev, bpp, out[f], bestScore);
    if (score < bestScore) {
      bestScore = score;
      best = out[f];
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

/**
 * The IDAT stream of a PNG being written: one zlib stream, fed one filtered
 * row at a time (the last one closes it). Holds only the compressed output.
 */
/** Size of the blocks the compressed stream is kept in. */
const IDAT_BLOCK = 1 << 18;
/** Filtered data up to this size is compressed in one zlibSync call (memory bounded by it). */
const ONE_SHOT_BYTES = 4 << 20;
/** What the native compressor is handed at a time. */
const NATIVE_CHUNK = 1 << 19;
/** fflate's LZ77 window, and the stored prefix that primes it. */
const WINDOW = 32768;

const adler32 = (a: number, b: number, d: Uint8Array): [number, number] => {
  for (let i = 0; i < d.length; ) {
    const end = Math.min(d.length, i + 5552);
    for (; i < end; i++) {
      a += d[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return [a, b];
};

/**
 * The IDAT stream of a PNG being written: one zlib stream, fed one filtered
 * row at a time. Holds the compressed output and at most ONE_SHOT_BYTES of rows.
 *
 * fflate's streaming Deflate (0.8.2, 0.8.3) can emit back-references into its
 * zero-filled lookback window during the first 32 KB of a stream ("invalid
 * distance too far back" for zlib and PNG decoders; fflate issue #260), which
 * broke some palette PNGs. So small images are compressed in one zlibSync call
 * (correct), and big ones start with their first 32 KB as a stored block that
 * then primes a raw Deflate as its dictionary: every distance then points into
 * data the decoder has. Zlib header and Adler-32 are written here.
 */
class IdatStream {
  /** The runtime's own zlib (native mode), fed NATIVE_CHUNK bytes at a time; its output drained into `parts` as it comes. */
  private native: { writer: WritableStreamDefaultWriter<Uint8Array>; drained: Promise<void>; staging: Uint8Array; filled: number } | null = null;
  /** Compressed output in blocks of IDAT_BLOCK bytes (few enough to pass as arguments), the last one partly filled. */
  private readonly parts: Uint8Array[] = [];
  private block = new Uint8Array(0);
  private filled = 0;
  private y = 0;
  private readonly total: number;
  /** Rows not yet compressed: all of them on the one-shot road, else the first WINDOW bytes. */
  private pending: Uint8Array | null;
  private pendingLength = 0;
  private deflate: Deflate | null = null;
  private adler: [number, number] = [1, 0];

  /**
   * `native`: compress big streams (past ONE_SHOT_BYTES) with the runtime's
   * CompressionStream (zlib at its default level, 6) instead of fflate, rows
   * then go in through pushAsync. Measured in Node on 36 MB of filtered photo
   * rows: 1.9x faster and 3-4 % smaller than fflate at level 6, and without
   * fflate's per-step buffers left for the collector.
   */
  constructor(
    private readonly height: number,
    rowLength: number,
    private readonly level: 6 | 9,
    native = false,
  ) {
    this.total = height * rowLength;
    const big = this.total > ONE_SHOT_BYTES;
    if (native && big && typeof CompressionStream === "function") {
      const zlib = new CompressionStream("deflate");
      const reader = zlib.readable.getReader();
      const drained = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          this.keep(value);
        }
      })();
      this.native = { writer: zlib.writable.getWriter(), drained, staging: new Uint8Array(NATIVE_CHUNK), filled: 0 };
      this.pending = null;
    } else {
      this.pending = new Uint8Array(big ? WINDOW : this.total);
    }
  }

  /**
   * Takes one filtered row; waits only when a chunk goes to the compressor,
   * so at most one chunk of rows is ever queued. The caller keeps the row
   * untouched until the returned promise settles.
   */
  async pushAsync(row: Uint8Array): Promise<void> {
    const native = this.native;
    if (!native) return this.push(row);
    if (this.y >= this.height) throw new Error(`PNG writer: more than ${this.height} rows`);
    this.y++;
    let at = 0;
    while (at < row.length) {
      const n = Math.min(row.length - at, native.staging.length - native.filled);
      native.staging.set(row.subarray(at, at + n), native.filled);
      native.filled += n;
      at += n;
      if (native.filled === native.staging.length) {
        // A fresh staging buffer: the stream may still be reading the one handed over.
        const full = native.staging;
        native.staging = new Uint8Array(NATIVE_CHUNK);
        native.filled = 0;
        await native.writer.write(full);
      }
    }
    if (this.y === this.height) {
      if (native.filled) await native.writer.write(native.staging.subarray(0, native.filled));
      await native.writer.close();
      await native.drained;
      this.native = null;
    }
  }

  private keep(data: Uint8Array): void {
    let at = 0;
    while (at < data.length) {
      if (this.filled === this.block.length) {
        if (this.block.length) this.parts.push(this.block);
        this.block = new Uint8Array(Math.max(Math.min(IDAT_BLOCK, 4096 << Math.min(this.parts.length, 6)), data.length - at));
        this.filled = 0;
      }
      const n = Math.min(data.length - at, this.block.length - this.filled);
      this.block.set(data.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
    }
  }

  push(row: Uint8Array): void {
    if (this.native) throw new Error("PNG writer: a native stream takes rows through pushAsync");
    if (this.y >= this.height) throw new Error(`PNG writer: more than ${this.height} rows`);
    this.y++;
    const final = this.y === this.height;
    if (this.total <= ONE_SHOT_BYTES) {
      this.pending!.set(row, this.pendingLength);
      this.pendingLength += row.length;
      if (final) {
        this.keep(zlibSync(this.pending!, { level: this.level }));
        this.pending = null;
      }
      return;
    }
    this.adler = adler32(this.adler[0], this.adler[1], row);
    let rest = row;
    if (!this.deflate) {
      const take = Math.min(rest.length, WINDOW - this.pendingLength);
      this.pending!.set(rest.subarray(0, take), this.pendingLength);
      this.pendingLength += take;
      rest = rest.subarray(take);
      if (this.pendingLength < WINDOW) return;
      // zlib header (deflate, 32 KB window, level hint, no dictionary), then the prefix as one stored, non-final block.
      const flg = (this.level === 9 ? 3 : 2) << 6;
      this.keep(new Uint8Array([0x78, flg | (31 - (((0x78 << 8) | flg) % 31)), 0, WINDOW & 0xff, WINDOW >> 8, ~WINDOW & 0xff, (~WINDOW >> 8) & 0xff]));
      this.keep(this.pending!);
      this.deflate = new Deflate({ level: this.level, dictionary: this.pending! });
      this.deflate.ondata = (data) => this.keep(data);
      this.pending = null;
    }
    // total > ONE_SHOT_BYTES > WINDOW, so the last row always gets here.
    this.deflate.push(rest, final);
    if (final) {
      const [a, b] = this.adler;
      this.keep(new Uint8Array([b >> 8, b & 0xff, a >> 8, a & 0xff]));
      this.deflate = null;
    }
  }

  /** The file: `head` chunks, then one IDAT with everything compressed, then IEND, in one buffer (a copy of the compressed data). */
  file(head: Uint8Array[]): Uint8Array {
    return contiguous(this.fileParts(head));
  }

  /** The file as its pieces, nothing copied (see engines/bytes.ts). */
  fileParts(head: Uint8Array[]): ByteParts {
    if (this.y !== this.height) throw new Error(`PNG writer: ${this.y} of ${this.height} rows written`);
    if (this.height === 0 && this.pending) {
      this.keep(zlibSync(new Uint8Array(0), { level: this.level }));
      this.pending = null;
    }
    const data = [...this.parts, this.block.subarray(0, this.filled)];
    let idatLength = 0;
    for (const p of data) idatLength += p.length;
    const idatType = new TextEncoder().encode("IDAT");
    const tail = new ByteWriter(4);
    tail.u32be(crc32(idatType, ...data));
    const idatHead = new ByteWriter(8);
    idatHead.u32be(idatLength);
    idatHead.bytes(idatType);
    memoryProbe.sample();
    this.parts.length = 0;
    this.block = new Uint8Array(0);
    this.filled = 0;
    return new ByteParts([PNG_SIGNATURE, ...head, idatHead.result(), ...data, tail.result(), IEND]);
  }
}

/**
 * Lossless true-colour (or grey) PNG written row by row, in a layout fixed up
 * front (pixels that need more than the layout lose it: alpha is dropped for
 * "rgb"/"grey", green and blue for the grey layouts). Each row gets the
 * adaptive filter choice and goes into zlib (level 6); memory is a few rows
 * plus the compressed output (see IdatStream).
 */
export class PngRowWriter implements RowSink {
  private readonly channels: number;
  private readonly colorType: number;
  private readonly idat: IdatStream;
  private readonly candidates: Uint8Array[];
  private prev: Uint8Array;
  private row: Uint8Array;

  /**
   * `icc`: a profile to carry (iCCP after IHDR). `native`: compress with the
   * runtime's zlib (rows then go in through `write`, not `writeRows`).
   */
  constructor(
    readonly width: number,
    readonly height: number,
    readonly layout: PngLayout,
    private readonly icc?: Uint8Array,
    native = false,
  ) {
    ({ channels: this.channels, colorType: this.colorType } = LAYOUT[layout]);
    const rowBytes = width * this.channels;
    this.candidates = Array.from({ length: 5 }, () => new Uint8Array(rowBytes + 1));
    this.prev = new Uint8Array(rowBytes);
    this.row = new Uint8Array(rowBytes);
    this.idat = new IdatStream(height, rowBytes + 1, 6, native);
  }

  /** Row `y` of RGBA `rows` in the layout, filtered: valid until the next call (it is one of `candidates`). */
  private filtered(rows: Pixels, y: number): Uint8Array {
    const { channels, width } = this;
    const d = rows.data;
    const row = this.row;
    const src = y * width * 4;
    for (let x = 0; x < width; x++) {
      const s = src + x * 4;
      const o = x * channels;
      if (channels <= 2) {
        row[o] = d[s];
        if (channels === 2) row[o + 1] = d[s + 3];
      } else {
        row[o] = d[s];
        row[o + 1] = d[s + 1];
        row[o + 2] = d[s + 2];
        if (channels === 4) row[o + 3] = d[s + 3];
      }
    }
    const filtered = bestFilter(row, this.prev, channels, this.candidates);
    [this.prev, this.row] = [row, this.prev];
    return filtered;
  }

  private check(rows: Pixels): void {
    if (rows.width !== this.width) throw new Error(`PngRowWriter: rows ${rows.width} wide, image ${this.width}`);
  }

  /** Same as `write`, synchronously (fflate only). */
  writeRows(rows: Pixels): void {
    this.check(rows);
    for (let y = 0; y < rows.height; y++) this.idat.push(this.filtered(rows, y));
  }

  private head(): Uint8Array[] {
    const head = [ihdr(this.width, this.height, 8, this.colorType)];
    if (this.icc?.length) head.push(iccpChunk(this.icc));
    return head;
  }

  /** Same as `finish`, synchronously, in one buffer. */
  finishSync(): Uint8Array {
    return this.idat.file(this.head());
  }

  async write(rows: Pixels): Promise<void> {
    this.check(rows);
    for (let y = 0; y < rows.height; y++) await this.idat.pushAsync(this.filtered(rows, y));
  }

  /** The file in pieces: a big PNG is never joined into a second buffer. */
  async finish(): Promise<ByteParts> {
    return this.idat.fileParts(this.head());
  }
}

/** Lossless true-colour (or grey) PNG. */
export function writePng(px: Pixels, layout = layoutOf(px)): Uint8Array {
  const w = new PngRowWriter(px.width, px.height, layout);
  w.writeRows(px);
  return w.finishSync();
}

/**
 * Palette PNG written from indices row by row: translucent entries first
 * (short tRNS), bit depth as small as the palette allows, rows unfiltered
 * (best for indices), zlib level 9. Memory is one row plus the compressed
 * output (see IdatStream).
 */
export class PalettePngRowWriter {
  private readonly newIndex = new Uint8Array(256);
  private readonly depth: number;
  private readonly rowBytes: number;
  private readonly head: Uint8Array[];
  private readonly idat: IdatStream;

  /** `colors`: RGBA entries, 4 bytes each, at most 256; indices written later refer to them. */
  constructor(
    readonly width: number,
    readonly height: number,
    colors: Uint8Array,
  ) {
    const n = colors.length / 4;
    if (n > 256) throw new Error(`PalettePngRowWriter: ${n} colours`);
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => Number(colors[a * 4 + 3] === 255) - Number(colors[b * 4 + 3] === 255));
    order.forEach((old, i) => (this.newIndex[old] = i));
    const plte = new Uint8Array(n * 3);
    let translucent = 0;
    order.forEach((old, i) => {
      plte.set(colors.subarray(old * 4, old * 4 + 3), i * 3);
      if (colors[old * 4 + 3] !== 255) translucent = i + 1;
    });
    this.depth = n <= 2 ? 1 : n <= 4 ? 2 : n <= 16 ? 4 : 8;
    this.rowBytes = Math.ceil((width * this.depth) / 8);
    this.head = [ihdr(width, height, this.depth, 3), pngChunk("PLTE", plte)];
    if (translucent)
      this.head.push(
        pngChunk(
          "tRNS",
          Uint8Array.from(order.slice(0, translucent), (old) => colors[old * 4 + 3]),
        ),
      );
    this.idat = new IdatStream(height, this.rowBytes + 1, 9);
  }

  /** The next `rows` rows of palette indices (`rows × width` of them, into the constructor's `colors`). */
  writeIndices(indices: Uint8Array, rows: number): void {
    const { width, depth, newIndex } = this;
    if (indices.length < rows * width) throw new Error(`PalettePngRowWriter: ${indices.length} indices for ${rows} rows of ${width}`);
    for (let y = 0; y < rows; y++) {
      const row = new Uint8Array(this.rowBytes + 1);
      const at = y * width;
      for (let x = 0; x < width; x++) {
        const v = newIndex[indices[at + x]];
        const bit = x * depth;
        row[1 + (bit >> 3)] |= v << (8 - depth - (bit & 7));
      }
      this.idat.push(row);
    }
  }

  /** The PNG file, once every row has been written. */
  finish(): Uint8Array {
    return this.idat.file(this.head);
  }
}

/** Palette PNG from quantiser output: translucent entries first (short tRNS), rows unfiltered (best for indices). */
export function writePalettePng(width: number, height: number, pal: Palette): Uint8Array {
  const w = new PalettePngRowWriter(width, height, pal.colors);
  w.writeIndices(pal.indices, height);
  return w.finish();
}

const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IEND = pngChunk("IEND", new Uint8Array(0));
