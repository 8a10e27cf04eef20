import { EngineError } from "../../errors";
import type { BandSource, PixelBand } from "../memory/bands";
import { memoryProbe } from "../memory/probe";
import { closeInflateBand, type InflateBand, openInflateBand } from "../codecs/inflate-band";
import { CHANNELS, corrupt, isGrey, mayHaveAlpha, readPngStructure, type PngStructure } from "./chunks";
import { rowExpander, type RowExpander } from "./expand";
import { ZlibInflater } from "./inflate";
import { unfilter } from "./unfilter";

// A PNG read as horizontal bands of RGBA8 rows, pixel-identical to decodePng
// (squoosh's `png` crate), for PNGs too big to decode whole in a Worker.
//
// Non-interlaced files stream: the IDAT data is inflated incrementally by
// zlib in WASM (inflate.ts) and un-filtered a scanline at a time, so memory is
// the compressed file (the caller's), one band (4 B/px of the band), two
// scanlines and the inflater's heap and pieces (about 1 MB), whatever the
// image size.
// Adam7-interlaced files cannot be produced in row order: bands() decodes
// them whole into one RGBA buffer first (4 B/px of the whole image, held
// until the iteration ends) and then cuts that into bands; `interlaced` is
// known from the constructor so callers can budget or refuse.
//
// Each bands() call starts again from the first row (a two-pass consumer can
// iterate twice). Errors are EngineError("corrupt"): the constructor checks the
// signature, IHDR and chunk layout (chunks.ts); bands() throws on damaged or
// short image data, before yielding the band concerned (a bad end of the
// compressed stream: before the last band).

/** Adam7 passes: first column and row, column and row step. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

export class PngBandSource implements BandSource {
  readonly width: number;
  readonly height: number;
  /** Adam7: bands() then decodes the whole image first (4 bytes a pixel held). */
  readonly interlaced: boolean;
  /** Every pixel has R = G = B (grey colour types, or a palette of greys). */
  readonly grey: boolean;
  /** False only when every pixel is certain to be opaque (no alpha channel, no tRNS that makes anything transparent). */
  readonly mayHaveAlpha: boolean;
  /** Bits a sample as stored (1, 2, 4, 8 or 16; output is always 8). */
  readonly bitDepth: number;
  /** PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  readonly colorType: number;
  private readonly s: PngStructure;
  private readonly expand: RowExpander;
  /** Bytes a complete pixel, at least 1 (the filters' "bpp"). */
  private readonly bpp: number;
  private readonly bitsPerPixel: number;

  /** `bytes`: the whole PNG file, kept (not copied): it must not change while bands are read. */
  constructor(bytes: Uint8Array) {
    this.s = readPngStructure(bytes);
    const h = this.s.header;
    this.width = h.width;
    this.height = h.height;
    this.interlaced = h.interlaced;
    this.bitDepth = h.bitDepth;
    this.colorType = h.colorType;
    this.grey = isGrey(this.s);
    this.mayHaveAlpha = mayHaveAlpha(this.s);
    this.bitsPerPixel = CHANNELS[h.colorType] * h.bitDepth;
    this.bpp = Math.max(1, this.bitsPerPixel >> 3);
    this.expand = rowExpander(this.s);
  }

  private rowBytes(width: number): number {
    return Math.ceil((width * this.bitsPerPixel) / 8);
  }

  async *bands(targetPixels = 1 << 20): AsyncGenerator<PixelBand> {
    const step = Math.max(1, Math.floor(targetPixels / this.width) || 1);
    const { m, ticket } = await openInflateBand();
    try {
      if (this.interlaced) {
        const all = this.decodeInterlaced(m);
        const rowBytes = this.width * 4;
        for (let y = 0; y < this.height; y += step) {
          const h = Math.min(step, this.height - y);
          memoryProbe.sample();
          yield { y, pixels: { data: all.subarray(y * rowBytes, (y + h) * rowBytes), width: this.width, height: h } };
        }
        return;
      }
      yield* this.streamBands(m, step);
    } catch (err) {
      // Ours are EngineErrors already; a RangeError is an allocation failure, not damage.
      if (err instanceof EngineError || err instanceof RangeError) throw err;
      throw corrupt(err instanceof Error ? err.message : "damaged data");
    } finally {
      closeInflateBand(m, ticket);
    }
  }

  private *streamBands(m: InflateBand, step: number): Generator<PixelBand> {
    const { width, height, bpp } = this;
    const raw = new ZlibInflater(m, this.s.idat);
    const rowBytes = this.rowBytes(width);
    const need = 1 + rowBytes;
    let cur = new Uint8Array(bpp + rowBytes);
    let prev = new Uint8Array(bpp + rowBytes);
    for (let y = 0; y < height; y += step) {
      const h = Math.min(step, height - y);
      const out = new Uint8Array(width * h * 4);
      for (let r = 0; r < h; r++) {
        if (raw.available < need) raw.fill(need);
        const filter = raw.takeByte();
        raw.take(cur, bpp, rowBytes);
        unfilter(filter, cur, prev, bpp);
        this.expand(cur, bpp, width, out, r * width * 4, 1);
        const t = prev;
        prev = cur;
        cur = t;
      }
      if (y + h >= height) raw.finish();
      memoryProbe.sample();
      yield { y, pixels: { data: out, width, height: h } };
    }
  }

  /** Whole-image decode of an Adam7 file into RGBA (width * height * 4 bytes). */
  private decodeInterlaced(m: InflateBand): Uint8Array {
    const { width, height, bpp } = this;
    const raw = new ZlibInflater(m, this.s.idat);
    const out = new Uint8Array(width * height * 4);
    const maxRow = this.rowBytes(width);
    const curBuf = new Uint8Array(bpp + maxRow);
    const prevBuf = new Uint8Array(bpp + maxRow);
    for (const [x0, y0, dx, dy] of ADAM7) {
      const pw = Math.ceil((width - x0) / dx);
      const ph = Math.ceil((height - y0) / dy);
      // A pass with no pixels has no scanlines at all (not even filter bytes).
      if (pw <= 0 || ph <= 0) continue;
      const rowBytes = this.rowBytes(pw);
      const need = 1 + rowBytes;
      let c = curBuf.subarray(0, bpp + rowBytes);
      let p = prevBuf.subarray(0, bpp + rowBytes);
      p.fill(0);
      for (let py = 0; py < ph; py++) {
        if (raw.available < need) raw.fill(need);
        const filter = raw.takeByte();
        raw.take(c, bpp, rowBytes);
        unfilter(filter, c, p, bpp);
        this.expand(c, bpp, pw, out, ((y0 + py * dy) * width + x0) * 4, dx);
        const t = p;
        p = c;
        c = t;
      }
    }
    raw.finish();
    return out;
  }
}
