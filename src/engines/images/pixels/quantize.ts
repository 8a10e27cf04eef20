import { memoryProbe } from "../memory/probe";
import type { Pixels } from "../types";

// Palette quantiser in the manner of libimagequant: a colour histogram, median
// cut that stops as soon as the palette meets a quality-derived error target
// (so simple images get few colours and small files), k-means refinement, then
// Floyd–Steinberg remapping. Distances are taken on premultiplied colour, so
// transparent pixels of any colour count as equal.

export interface Palette {
  /** RGBA entries, 4 bytes each. */
  colors: Uint8Array;
  /** One palette index per pixel. */
  indices: Uint8Array;
}

export interface QuantizeOptions {
  maxColors: number;
  /** 1..100; sets the error the palette may leave (pngquant-style). 100 asks for the most accurate palette. */
  quality: number;
  dither: boolean;
}

/** libimagequant's curve: quality -> mean squared error per channel on a 0..1 scale. */
export function qualityToMse(quality: number): number {
  if (quality >= 100) return 0;
  const lowFudge = Math.max(0, 0.016 / (0.001 + quality) - 0.001);
  return lowFudge + (2.5 / (210 + quality) ** 1.2) * ((100.1 - quality) / 100);
}

const KEY_BITS = 19; // 5 bits each of R, G, B and 4 of alpha
const keyOf = (r: number, g: number, b: number, a: number): number => (a < 8 ? 0 : ((r >> 3) << 14) | ((g >> 3) << 9) | ((b >> 3) << 4) | (a >> 4));

const isLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Band pixels as 32-bit words (a copy only when the band is not 4-byte aligned). */
function words(px: Pixels): Uint32Array {
  const n = px.width * px.height;
  const d = px.data;
  if (d.byteOffset % 4 === 0) return new Uint32Array(d.buffer, d.byteOffset, n);
  return new Uint32Array(Uint8Array.from(d.subarray(0, n * 4)).buffer);
}

interface Histogram {
  n: number;
  count: Float64Array;
  /** Premultiplied means per bucket: r, g, b, a interleaved. */
  mean: Float64Array;
  /** Sum of squared deviations inside each bucket (all channels). */
  inner: Float64Array;
}

/** Most pixels the histogram looks at: huge images are sampled regularly, which describes the colours as well. */
const HISTOGRAM_SAMPLES = 4_000_000;

/**
 * First half of quantisation, fed band by band (rows top to bottom): the exact
 * colour set while there are at most `maxColors` colours, and the bucketed
 * histogram of a regular sample of pixels (every `step`-th pixel by index in
 * the whole image, so bands of any size give the same histogram).
 */
export class PaletteBuilder {
  private readonly step: number;
  private readonly total: number;
  /** Pixels added so far (global index of the next one). */
  private seenPixels = 0;
  /** Exact colours in order of first appearance; null once there are too many. */
  private exact: Map<number, number> | null = new Map();
  private slot: Int32Array | null = new Int32Array(1 << KEY_BITS).fill(-1);
  private n = 0;
  private count = new Float64Array(1024);
  private sum = new Float64Array(1024 * 4);
  private sq = new Float64Array(1024);

  constructor(
    readonly width: number,
    readonly height: number,
    readonly maxColors: number,
    /** Pixels the histogram samples at most (tests lower it to exercise sampling on small images). */
    maxSamples = HISTOGRAM_SAMPLES,
  ) {
    this.total = width * height;
    this.step = Math.max(1, Math.floor(this.total / maxSamples));
  }

  /** Adds the next rows of the image (`rows.width` must be the image width). */
  add(rows: Pixels): void {
    if (!this.slot) throw new Error("PaletteBuilder: add() after build()");
    if (rows.width !== this.width) throw new Error(`PaletteBuilder: band width ${rows.width}, image width ${this.width}`);
    const n = rows.width * rows.height;
    const from = this.seenPixels;
    if (from + n > this.total) throw new Error("PaletteBuilder: more rows than the image has");
    this.seenPixels += n;
    if (this.exact) this.addExact(rows);
    this.addHistogram(rows.data, from, n);
  }

  private addExact(rows: Pixels): void {
    const seen = this.exact!;
    const src = words(rows);
    const max = this.maxColors;
    let last = -1;
    for (let i = 0; i < src.length; i++) {
      let v = src[i];
      // All fully transparent pixels are one colour.
      if (v >>> 24 === 0 && isLittleEndian) v = 0;
      if (v === last) continue;
      last = v;
      if (!seen.has(v)) {
        if (seen.size >= max) {
          this.exact = null;
          return;
        }
        seen.set(v, seen.size);
      }
    }
  }

  private grow(): void {
    const cap = this.count.length * 2;
    const count = new Float64Array(cap);
    count.set(this.count);
    const sum = new Float64Array(cap * 4);
    sum.set(this.sum);
    const sq = new Float64Array(cap);
    sq.set(this.sq);
    this.count = count;
    this.sum = sum;
    this.sq = sq;
  }

  private addHistogram(d: Uint8Array | Uint8ClampedArray, from: number, n: number): void {
    const slot = this.slot!;
    const step = this.step;
    // First sampled pixel of this band: global indices 0, step, 2·step, ...
    const first = Math.ceil(from / step) * step - from;
    for (let i = first; i < n; i += step) {
      const o = i * 4;
      const a = d[o + 3];
      const k = keyOf(d[o], d[o + 1], d[o + 2], a);
      let s = slot[k];
      if (s < 0) {
        if (this.n === this.count.length) this.grow();
        s = slot[k] = this.n++;
      }
      const f = a / 255;
      const r = d[o] * f,
        g = d[o + 1] * f,
        b = d[o + 2] * f;
      const sum = this.sum;
      this.count[s]++;
      sum[s * 4] += r;
      sum[s * 4 + 1] += g;
      sum[s * 4 + 2] += b;
      sum[s * 4 + 3] += a;
      this.sq[s] += r * r + g * g + b * b + a * a;
    }
  }

  /**
   * The palette, once every row has been added: the exact colours (in order
   * of first appearance) when there are few enough, else median cut to the
   * quality's error target and k-means refinement. Frees the histogram.
   */
  build(opts: { quality: number }): BuiltPalette {
    if (this.seenPixels !== this.total) throw new Error(`PaletteBuilder: ${this.seenPixels} of ${this.total} pixels added`);
    if (!this.slot) throw new Error("PaletteBuilder: build() called twice");
    this.slot = null;
    if (this.exact) {
      const colors = new Uint8Array(this.exact.size * 4);
      const view = new Uint32Array(colors.buffer);
      for (const [v, idx] of this.exact) view[idx] = v;
      this.exact = null;
      return { colors, exact: true };
    }
    const h = this.histogram();
    const sampled = h.count.reduce((s, v) => s + v, 0);
    // Error budget in the histogram's units: 4 channels on a 0..255 scale.
    const target = qualityToMse(opts.quality) * 255 * 255 * 4 * sampled;
    const pal = medianCut(h, this.maxColors, target);
    refine(h, pal, 3);
    memoryProbe.sample();
    return { colors: paletteBytes(pal), exact: false };
  }

  private histogram(): Histogram {
    const n = this.n;
    const count = this.count.subarray(0, n);
    const sum = this.sum.subarray(0, n * 4);
    const sq = this.sq;
    const inner = new Float64Array(n);
    for (let s = 0; s < n; s++) {
      let m2 = 0;
      for (let c = 0; c < 4; c++) {
        sum[s * 4 + c] /= count[s];
        m2 += sum[s * 4 + c] * sum[s * 4 + c];
      }
      inner[s] = Math.max(0, sq[s] - count[s] * m2);
    }
    this.count = this.sum = this.sq = new Float64Array(0);
    return { n, count, mean: sum, inner };
  }
}

/** What PaletteBuilder.build gives: RGBA entries, and whether they are the image's exact colours. */
export interface BuiltPalette {
  /** RGBA entries, 4 bytes each (straight alpha). */
  colors: Uint8Array;
  /** The image's own colours: map them by value (no search, no dithering). */
  exact: boolean;
}

interface Box {
  from: number;
  to: number;
  weight: number;
  sse: number;
  mean: [number, number, number, number];
  /** Channel with the largest spread, where the box is cut. */
  axis: number;
}

function describe(h: Histogram, order: Int32Array, from: number, to: number): Box {
  const mean: [number, number, number, number] = [0, 0, 0, 0];
  let w = 0;
  for (let i = from; i < to; i++) {
    const s = order[i];
    w += h.count[s];
    for (let c = 0; c < 4; c++) mean[c] += h.mean[s * 4 + c] * h.count[s];
  }
  for (let c = 0; c < 4; c++) mean[c] /= w || 1;
  const spread = [0, 0, 0, 0];
  let sse = 0;
  for (let i = from; i < to; i++) {
    const s = order[i];
    sse += h.inner[s];
    for (let c = 0; c < 4; c++) {
      const dv = h.mean[s * 4 + c] - mean[c];
      spread[c] += dv * dv * h.count[s];
      sse += dv * dv * h.count[s];
    }
  }
  let axis = 0;
  for (let c = 1; c < 4; c++) if (spread[c] > spread[axis]) axis = c;
  return { from, to, weight: w, sse, mean, axis };
}

function split(h: Histogram, order: Int32Array, box: Box): [Box, Box] | null {
  if (box.to - box.from < 2) return null;
  const part = Array.from(order.subarray(box.from, box.to));
  part.sort((x, y) => h.mean[x * 4 + box.axis] - h.mean[y * 4 + box.axis]);
  order.set(part, box.from);
  let acc = 0;
  let cut = box.from + 1;
  for (let i = box.from; i < box.to - 1; i++) {
    acc += h.count[order[i]];
    cut = i + 1;
    if (acc >= box.weight / 2) break;
  }
  return [describe(h, order, box.from, cut), describe(h, order, cut, box.to)];
}

/** Median cut until the error target or the colour budget is reached. */
function medianCut(h: Histogram, maxColors: number, targetSse: number): number[][] {
  const order = new Int32Array(h.n);
  for (let i = 0; i < h.n; i++) order[i] = i;
  const boxes: Box[] = [describe(h, order, 0, h.n)];
  let total = boxes[0].sse;
  while (boxes.length < maxColors && total > targetSse) {
    let worst = -1;
    for (let i = 0; i < boxes.length; i++) if (boxes[i].to - boxes[i].from > 1 && (worst < 0 || boxes[i].sse > boxes[worst].sse)) worst = i;
    if (worst < 0) break;
    const halves = split(h, order, boxes[worst]);
    if (!halves) break;
    total += halves[0].sse + halves[1].sse - boxes[worst].sse;
    boxes.splice(worst, 1, halves[0], halves[1]);
  }
  return boxes.map((b) => [...b.mean]);
}

function nearest(pal: number[][], r: number, g: number, b: number, a: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < pal.length; i++) {
    const p = pal[i];
    const d = (p[0] - r) ** 2 + (p[1] - g) ** 2 + (p[2] - b) ** 2 + (p[3] - a) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** k-means (Voronoi) iterations over the histogram, as libimagequant does after median cut. */
function refine(h: Histogram, pal: number[][], rounds: number): void {
  for (let round = 0; round < rounds; round++) {
    const acc = pal.map(() => [0, 0, 0, 0, 0]);
    for (let s = 0; s < h.n; s++) {
      const m = s * 4;
      const i = nearest(pal, h.mean[m], h.mean[m + 1], h.mean[m + 2], h.mean[m + 3]);
      const w = h.count[s];
      for (let c = 0; c < 4; c++) acc[i][c] += h.mean[m + c] * w;
      acc[i][4] += w;
    }
    for (let i = 0; i < pal.length; i++) if (acc[i][4] > 0) for (let c = 0; c < 4; c++) pal[i][c] = acc[i][c] / acc[i][4];
  }
}

/** Straight-alpha RGBA bytes of premultiplied palette entries. */
function paletteBytes(pal: number[][]): Uint8Array {
  const out = new Uint8Array(pal.length * 4);
  pal.forEach((p, i) => {
    const a = Math.round(Math.min(255, Math.max(0, p[3])));
    const un = a > 0 ? 255 / a : 0;
    out[i * 4] = Math.round(Math.min(255, Math.max(0, p[0] * un)));
    out[i * 4 + 1] = Math.round(Math.min(255, Math.max(0, p[1] * un)));
    out[i * 4 + 2] = Math.round(Math.min(255, Math.max(0, p[2] * un)));
    out[i * 4 + 3] = a;
  });
  return out;
}

/**
 * Second half of quantisation: maps rows to palette indices, band by band, top
 * to bottom. Floyd–Steinberg error rows and the serpentine direction (by image
 * row) carry over between calls, so mapping an image in bands of any size gives
 * exactly the indices of mapping it whole. With `exact`, `colors` are the
 * image's own colours (PaletteBuilder's exact palette) and pixels are looked up
 * by value.
 */
export class Remapper {
  private readonly pal: number[][] = [];
  private readonly cache: Int16Array | null = null;
  private readonly exactIndex: Map<number, number> | null = null;
  private cur: Float32Array | null = null;
  private next: Float32Array | null = null;
  /** Image row of the next row to map. */
  private y = 0;

  constructor(
    readonly width: number,
    readonly colors: Uint8Array,
    readonly dither: boolean,
    readonly exact = false,
  ) {
    const n = colors.length / 4;
    if (exact) {
      const view = new Uint32Array(Uint8Array.from(colors).buffer);
      this.exactIndex = new Map();
      for (let i = 0; i < n; i++) this.exactIndex.set(view[i], i);
      return;
    }
    for (let i = 0; i < n; i++) {
      const a = colors[i * 4 + 3] / 255;
      this.pal.push([colors[i * 4] * a, colors[i * 4 + 1] * a, colors[i * 4 + 2] * a, colors[i * 4 + 3]]);
    }
    this.cache = new Int16Array(1 << KEY_BITS).fill(-1);
    if (dither) {
      this.cur = new Float32Array((width + 2) * 4);
      this.next = new Float32Array((width + 2) * 4);
    }
  }

  /** Palette indices for the next `rows.height` rows (`rows.width` must be the image width). */
  map(rows: Pixels): Uint8Array {
    if (rows.width !== this.width) throw new Error(`Remapper: band width ${rows.width}, image width ${this.width}`);
    const out = this.exactIndex ? this.mapExact(rows) : this.mapNearest(rows);
    this.y += rows.height;
    return out;
  }

  private mapExact(rows: Pixels): Uint8Array {
    const src = words(rows);
    const index = this.exactIndex!;
    const out = new Uint8Array(src.length);
    let last = -1;
    let lastIdx = 0;
    for (let i = 0; i < src.length; i++) {
      let v = src[i];
      if (v >>> 24 === 0 && isLittleEndian) v = 0;
      if (v !== last) {
        const idx = index.get(v);
        if (idx === undefined) throw new Error("Remapper: colour missing from the exact palette");
        last = v;
        lastIdx = idx;
      }
      out[i] = lastIdx;
    }
    return out;
  }

  private mapNearest(px: Pixels): Uint8Array {
    const { pal, colors } = this;
    const cache = this.cache!;
    const lookup = (r: number, g: number, b: number, a: number): number => {
      const k = keyOf(r, g, b, a);
      let v = cache[k];
      if (v < 0) {
        const f = a / 255;
        v = cache[k] = nearest(pal, r * f, g * f, b * f, a);
      }
      return v;
    };
    const { width: w, height: h, data: d } = px;
    const out = new Uint8Array(w * h);
    const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v | 0);
    if (!this.dither) {
      for (let i = 0; i < w * h; i++) out[i] = lookup(d[i * 4], d[i * 4 + 1], d[i * 4 + 2], d[i * 4 + 3]);
      return out;
    }
    let cur = this.cur!;
    let next = this.next!;
    for (let y = 0; y < h; y++) {
      const ltr = ((this.y + y) & 1) === 0;
      for (let step = 0; step < w; step++) {
        const x = ltr ? step : w - 1 - step;
        const o = (y * w + x) * 4;
        const e = (x + 1) * 4;
        const r = clamp(d[o] + cur[e]),
          g = clamp(d[o + 1] + cur[e + 1]),
          b = clamp(d[o + 2] + cur[e + 2]),
          a = clamp(d[o + 3] + cur[e + 3]);
        const idx = lookup(r, g, b, a);
        out[y * w + x] = idx;
        const p = idx * 4;
        const err = [r - colors[p], g - colors[p + 1], b - colors[p + 2], a - colors[p + 3]];
        const fwd = ltr ? 4 : -4;
        for (let c = 0; c < 4; c++) {
          // Damped a little (as libimagequant does) so flat areas stay quiet and compress well.
          const ev = err[c] * 0.875;
          cur[e + fwd + c] += (ev * 7) / 16;
          next[e - fwd + c] += (ev * 3) / 16;
          next[e + c] += (ev * 5) / 16;
          next[e + fwd + c] += ev / 16;
        }
      }
      [cur, next] = [next, cur];
      next.fill(0);
    }
    this.cur = cur;
    this.next = next;
    return out;
  }
}

export function quantize(px: Pixels, opts: QuantizeOptions): Palette {
  const builder = new PaletteBuilder(px.width, px.height, opts.maxColors);
  builder.add(px);
  const { colors, exact } = builder.build(opts);
  return { colors, indices: new Remapper(px.width, colors, opts.dither, exact).map(px) };
}
