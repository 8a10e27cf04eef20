import { EngineError } from "../../errors";
import { damagedJpeg } from "./damaged";
import { memoryProbe } from "../memory/probe";
import type { Pixels } from "../types";
import type { CoefBand } from "./band";
import type { FrameGeometry } from "./frame";
import { isArithmetic, type JpegStructure } from "./markers";
import { ProgressiveReader } from "./progressive";
import { readQuantTables } from "./quant-tables";
import { isStreamable, SequentialReader } from "./sequential";
import type { BandSource, PixelBand } from "../memory/bands";

// A JPEG decoded straight at 1/2, 1/4 or 1/8 of its size, as libjpeg's
// scale_denom does: each 8x8 block's lowest NxN frequencies go through an
// N-point IDCT (N = 8/d), so a big downscale never touches full-size pixels.
// The result is the band-limited picture sampled at the coarser grid, a good
// pre-filter for the Lanczos3 pass that follows (which keeps a factor of at
// least 1.5 to do its own antialiasing: on the bench photos the result is as
// close to ImageMagick's full-size Lanczos as our full-size path, 41.6 vs
// 41.4 dB on a noisy 24 MP photo to 1600 wide). Chroma is replicated up to the luma
// grid at the reduced size, colour is JFIF YCbCr.

interface CoefSource {
  g: FrameGeometry;
  /** Next MCU row to read. */
  row: number;
  next(rows: number): CoefBand;
}

/** Zig-zag index of natural position (row v, column u). */
const ZIGZAG = (() => {
  const zz = new Int32Array(64);
  let i = 0;
  for (let s = 0; s < 15; s++) {
    const cells: [number, number][] = [];
    for (let v = 0; v <= s; v++) if (v < 8 && s - v < 8) cells.push([v, s - v]);
    if (s % 2 === 0) cells.reverse();
    for (const [v, u] of cells) zz[v * 8 + u] = i++;
  }
  return zz;
})();

/** Greyscale or YCbCr, Huffman-coded, integer sampling ratios: what this source can decode. */
export function canDecodeScaled(s: JpegStructure): boolean {
  const f = s.frame;
  if (f?.precision !== 8 || isArithmetic(f.marker)) return false;
  if (f.components.length === 1) return true;
  if (f.components.length !== 3) return false;
  const adobe = s.segments.find((seg) => seg.marker === 0xee && seg.data.length >= 12 && String.fromCharCode(...seg.data.subarray(0, 5)) === "Adobe");
  if (adobe && adobe.data[11] === 0) return false;
  const [y, cb, cr] = f.components;
  if (y.id === 0x52 && cb.id === 0x47 && cr.id === 0x42) return false;
  const hmax = Math.max(...f.components.map((c) => c.h)),
    vmax = Math.max(...f.components.map((c) => c.v));
  return f.components.every((c) => hmax % c.h === 0 && vmax % c.v === 0);
}

/** The largest of 8, 4, 2 that keeps the reduced picture at least 1.5 times the target each way (1: none). */
export function scaleDenominator(srcW: number, srcH: number, w: number, h: number): number {
  for (const d of [8, 4, 2]) if (Math.ceil(srcW / d) >= 1.5 * w && Math.ceil(srcH / d) >= 1.5 * h) return d;
  return 1;
}

/**
 * The largest of 8, 4, 2 that keeps the reduced picture at least the target
 * each way, with no antialiasing margin: for callers that pick their scales
 * as 1/2, 1/4 or 1/8 on purpose (PDF image recompression, as MuPDF decodes
 * JPEGs at those scales), the DCT-domain decode is the whole resampling.
 */
export function directScaleDenominator(srcW: number, srcH: number, w: number, h: number): number {
  for (const d of [8, 4, 2]) if (Math.ceil(srcW / d) >= w && Math.ceil(srcH / d) >= h) return d;
  return 1;
}

export class ScaledJpegSource implements BandSource {
  readonly width: number;
  readonly height: number;
  private readonly reader: CoefSource;
  private readonly n: number;
  /** Per component: N*N outputs x N*N inputs weights, dequantisation folded in; and the zig-zag indices read. */
  private readonly weights: Float32Array[];
  private readonly taps: Int32Array;

  constructor(
    b: Uint8Array,
    s: JpegStructure,
    readonly denominator: number,
  ) {
    try {
      this.reader = isStreamable(s) ? new SequentialReader(b, s) : new ProgressiveReader(b, s);
    } catch (err) {
      throw damagedJpeg(err);
    }
    const g = this.reader.g;
    this.n = 8 / denominator;
    this.width = Math.ceil(g.width / denominator);
    this.height = Math.ceil(g.height / denominator);
    const q = readQuantTables(s, s.scans[0].offset);
    const n = this.n;
    this.taps = new Int32Array(n * n);
    for (let v = 0; v < n; v++) for (let u = 0; u < n; u++) this.taps[v * n + u] = ZIGZAG[v * 8 + u];
    const c = (k: number) => (k === 0 ? Math.SQRT1_2 : 1);
    this.weights = g.components.map((comp) => {
      const steps = q.get(comp.tq);
      if (!steps) throw new EngineError("corrupt", "The JPEG could not be decoded: a component refers to a missing quantisation table.");
      const w = new Float32Array(n * n * n * n);
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          for (let v = 0; v < n; v++) {
            for (let u = 0; u < n; u++) {
              const basis = 0.25 * c(u) * c(v) * Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n)) * Math.cos(((2 * y + 1) * v * Math.PI) / (2 * n));
              w[(y * n + x) * n * n + v * n + u] = basis * steps[ZIGZAG[v * 8 + u]];
            }
          }
        }
      }
      return w;
    });
  }

  /** One component of a band as samples at the reduced scale (its own grid: bw*n by rows*v*n). */
  private samples(band: CoefBand, ci: number): { data: Float32Array; stride: number } {
    const g = this.reader.g;
    const comp = g.components[ci];
    const n = this.n,
      nn = n * n;
    const plane = band.planes[ci];
    const w = this.weights[ci];
    const stride = comp.bw * n;
    const rows = band.mcuRows * comp.v;
    const out = new Float32Array(stride * rows * n);
    // Non-zero low frequencies of the block (few in smooth areas): only those are summed.
    const nzTap = new Int32Array(nn);
    const nzVal = new Float32Array(nn);
    for (let by = 0; by < rows; by++) {
      for (let bx = 0; bx < comp.bw; bx++) {
        const at = (by * comp.bw + bx) * 64;
        let count = 0;
        for (let t = 1; t < nn; t++) {
          const v = plane[at + this.taps[t]];
          if (v !== 0) {
            nzTap[count] = t;
            nzVal[count++] = v;
          }
        }
        const o0 = by * n * stride + bx * n;
        const flat = plane[at] * w[0] + 128;
        if (count === 0) {
          // DC only: a flat block.
          for (let y = 0; y < n; y++) out.fill(flat, o0 + y * stride, o0 + y * stride + n);
          continue;
        }
        for (let y = 0, p = 0; y < n; y++) {
          const o = o0 + y * stride;
          for (let x = 0; x < n; x++, p++) {
            let sum = flat;
            const row = p * nn;
            for (let i = 0; i < count; i++) sum += w[row + nzTap[i]] * nzVal[i];
            out[o + x] = sum;
          }
        }
      }
    }
    return { data: out, stride };
  }

  async *bands(targetPixels = 1 << 20): AsyncGenerator<PixelBand> {
    const g = this.reader.g;
    const d = this.denominator;
    const rowsPerMcu = g.mcuH / d;
    // Bands are sized by source pixels: their coefficients (2 bytes a sample) dominate.
    const step = Math.max(1, Math.floor(targetPixels / (g.width * g.mcuH)));
    let y = 0;
    while (this.reader.row < g.mcusY) {
      let band: CoefBand;
      try {
        band = this.reader.next(step);
      } catch (err) {
        throw damagedJpeg(err);
      }
      const comps = g.components.map((_, ci) => this.samples(band, ci));
      const rows = Math.min(band.mcuRows * rowsPerMcu, this.height - y);
      const px = new Uint8ClampedArray(this.width * rows * 4);
      const grey = g.components.length === 1;
      // Column of each output pixel in each component's grid (chroma replicated).
      const cols = g.components.map((c) => {
        const f = g.hmax / c.h;
        return Int32Array.from({ length: this.width }, (_, x) => (x / f) | 0);
      });
      const fy = g.components.map((c) => g.vmax / c.v);
      const [Y, Cb, Cr] = comps;
      for (let r = 0; r < rows; r++) {
        const y0 = ((r / fy[0]) | 0) * Y.stride;
        let o = r * this.width * 4;
        if (grey) {
          for (let x = 0; x < this.width; x++, o += 4) {
            px[o] = px[o + 1] = px[o + 2] = Y.data[y0 + cols[0][x]];
            px[o + 3] = 255;
          }
          continue;
        }
        const b0 = ((r / fy[1]) | 0) * Cb.stride,
          r0 = ((r / fy[2]) | 0) * Cr.stride;
        for (let x = 0; x < this.width; x++, o += 4) {
          const yv = Y.data[y0 + cols[0][x]];
          const cb = Cb.data[b0 + cols[1][x]] - 128;
          const cr = Cr.data[r0 + cols[2][x]] - 128;
          px[o] = yv + 1.402 * cr;
          px[o + 1] = yv - 0.344136 * cb - 0.714136 * cr;
          px[o + 2] = yv + 1.772 * cb;
          px[o + 3] = 255;
        }
      }
      memoryProbe.sample();
      const pixels: Pixels = { data: px, width: this.width, height: rows };
      yield { y, pixels };
      y += rows;
      if (y >= this.height) break;
    }
  }
}
