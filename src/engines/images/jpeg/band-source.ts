import { EngineError } from "../../errors";
import { damagedJpeg } from "./damaged";
import type { BandSource, PixelBand, YcbcrCoefficients } from "../memory/bands";
import { memoryProbe } from "../memory/probe";
import type { CoefBand } from "./band";
import { bandPixels, copiedBandPixels, joinBands } from "./band-pixels";
import { cmykBandPixels } from "./cmyk";
import type { FrameGeometry } from "./frame";
import { ArithmeticPlanes } from "./arithmetic";
import { isArithmetic, segment, type JpegStructure } from "./markers";
import { ProgressiveReader } from "./progressive";
import { quantTablesOf } from "./quant-tables";
import { isStreamable, SequentialReader } from "./sequential";

// A JPEG read as horizontal bands of RGBA rows, bounded memory whatever its
// size: coefficients are read MCU row by MCU row (progressive files too: each
// scan resumes where it stopped), and each band is decoded with one MCU row of
// context above and below so chroma upsampling at band seams matches a whole
// decode. A single-scan file hands MozJPEG its own bits for the band
// (band-pixels.ts, copiedBandPixels); the others' bands are coded again.

interface CoefReader {
  g: FrameGeometry;
  dqt: Uint8Array[];
  next(rows: number): CoefBand;
}

export class JpegBandSource implements BandSource {
  readonly width: number;
  readonly height: number;
  private readonly reader: CoefReader;
  private readonly extra: Uint8Array[];
  /** Adobe APP14 transform flag (null without the marker); four components take the CMYK path. */
  private readonly adobeTransform: number | null;
  private readonly precision: number;

  constructor(b: Uint8Array, s: JpegStructure) {
    try {
      const arithmetic = !!s.frame && isArithmetic(s.frame.marker);
      this.reader = arithmetic ? new ArithmeticPlanes(b, s) : isStreamable(s) ? new SequentialReader(b, s) : new ProgressiveReader(b, s);
    } catch (err) {
      throw damagedJpeg(err);
    }
    this.precision = s.frame?.precision ?? 8;
    this.width = this.reader.g.width;
    this.height = this.reader.g.height;
    // Adobe APP14 tells libjpeg whether 3 components are YCbCr or RGB.
    const adobe = s.segments.find((seg) => seg.marker === 0xee && seg.data.length >= 12 && String.fromCharCode(...seg.data.subarray(0, 5)) === "Adobe");
    this.adobeTransform = adobe ? adobe.data[11] : null;
    this.extra = s.segments.filter((seg) => seg.marker === 0xee).map((seg) => segment(0xee, seg.data));
  }

  /** MCU rows per band so a band is about `pixels` pixels. */
  private rowsFor(pixels: number): number {
    return Math.max(1, Math.floor(pixels / (this.width * this.reader.g.mcuH)));
  }

  private read(rows: number): CoefBand {
    try {
      // Bands are read-only from here on, so the readers' arrays (or views) are used as they are.
      return this.reader.next(rows);
    } catch (err) {
      throw damagedJpeg(err);
    }
  }

  /** The window's pixels from the file's own bits, when the reader and the tables allow (else null). */
  private copied(first: CoefBand, from: number, to: number) {
    const r = this.reader;
    if (!(r instanceof SequentialReader) || !r.copyable || r.g.components.length === 4) return null;
    return copiedBandPixels(r, first, from, to, this.extra);
  }

  /** The window's pixels from its coefficients, coded again as a baseline JPEG. */
  private coded(g: FrameGeometry, parts: (CoefBand | null)[]) {
    const window = joinBands(
      g,
      parts.filter((p): p is CoefBand => !!p),
    );
    return g.components.length === 4 ? cmykBandPixels(g, this.reader.dqt, window, this.adobeTransform) : bandPixels(g, this.reader.dqt, window, this.extra);
  }

  /**
   * The coefficients as they are, when the file is 8-bit YCbCr subsampled
   * 2x2 (what phones write) or 2x1 (many cameras, and MozJPEG below quality
   * 90): libjpeg's reading of three
   * components as YCbCr unless an Adobe marker says RGB or the ids spell R,
   * G, B. Null for anything else; read instead of bands(), not beside it.
   */
  ycbcrCoefficients(): YcbcrCoefficients | null {
    const g = this.reader.g;
    const [y, cb, cr] = g.components;
    if (g.components.length !== 3 || this.precision !== 8 || this.adobeTransform === 0) return null;
    if (y.h !== 2 || (y.v !== 2 && y.v !== 1) || cb.h !== 1 || cb.v !== 1 || cr.h !== 1 || cr.v !== 1) return null;
    if (y.id === 0x52 && cb.id === 0x47 && cr.id === 0x42) return null;
    let tables: ReturnType<typeof quantTablesOf>;
    try {
      tables = quantTablesOf(this.reader.dqt);
    } catch {
      return null;
    }
    const steps = g.components.map((c) => tables.get(c.tq));
    if (steps.some((s) => !s)) return null;
    return { g, steps: steps as Uint16Array[], bands: (targetPixels) => this.coefficientBands(targetPixels) };
  }

  private *coefficientBands(targetPixels: number): Generator<CoefBand> {
    const step = this.rowsFor(targetPixels);
    for (let row = 0; row < this.reader.g.mcusY; ) {
      const band = this.read(step);
      if (band.mcuRows <= 0) throw new EngineError("corrupt", "The JPEG could not be decoded: it ends before its last row.");
      memoryProbe.sample();
      yield band;
      row = band.firstMcuRow + band.mcuRows;
    }
  }

  async *bands(targetPixels = 1 << 20): AsyncGenerator<PixelBand> {
    const g = this.reader.g;
    const step = this.rowsFor(targetPixels);
    let above: CoefBand | null = null;
    let current = this.read(step);
    while (current.mcuRows > 0) {
      const more = current.firstMcuRow + current.mcuRows < g.mcusY;
      const next = more ? this.read(step) : null;
      // One MCU row of the following band is enough context for upsampling.
      const from = (above ?? current).firstMcuRow;
      const to = current.firstMcuRow + current.mcuRows + (next ? 1 : 0);
      const px = (await this.copied(above ?? current, from, to)) ?? (await this.coded(g, [above, current, next && sliceRows(g, next, 0, 1)]));
      const skip = above ? g.mcuH : 0;
      const y = current.firstMcuRow * g.mcuH;
      const rows = Math.min(current.mcuRows * g.mcuH, this.height - y);
      const rowBytes = this.width * 4;
      memoryProbe.sample();
      yield { y, pixels: { data: px.data.subarray(skip * rowBytes, (skip + rows) * rowBytes), width: this.width, height: rows } };
      above = sliceRows(g, current, current.mcuRows - 1, 1);
      if (!next) break;
      current = next;
    }
  }
}

/** MCU rows [from, from+n) of a band, as a band of its own (views). */
function sliceRows(g: FrameGeometry, b: CoefBand, from: number, n: number): CoefBand {
  return {
    firstMcuRow: b.firstMcuRow + from,
    mcuRows: n,
    planes: g.components.map((c, i) => b.planes[i].subarray(from * c.v * c.bw * 64, (from + n) * c.v * c.bw * 64)),
  };
}
