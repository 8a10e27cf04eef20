import type { Pixels } from "../types";

// Streaming Lanczos3 resampling for images too big to hold whole: rows go in
// top to bottom, each is resampled horizontally at once, and an output row is
// produced as soon as the input rows under its vertical kernel have arrived,
// so memory is one kernel's height of rows. Like squoosh's resize it works in
// linear light with premultiplied alpha.

interface Kernel {
  start: Int32Array;
  count: Int32Array;
  weights: Float32Array;
  taps: number;
}

const lanczos3 = (x: number): number => {
  if (x === 0) return 1;
  if (x <= -3 || x >= 3) return 0;
  const px = Math.PI * x;
  return (3 * Math.sin(px) * Math.sin(px / 3)) / (px * px);
};

function kernel(src: number, dst: number): Kernel {
  const scale = dst / src;
  const stretch = Math.max(1, 1 / scale); // widen the filter when shrinking
  const support = 3 * stretch;
  const taps = Math.ceil(support * 2) + 1;
  const start = new Int32Array(dst);
  const count = new Int32Array(dst);
  const weights = new Float32Array(dst * taps);
  for (let i = 0; i < dst; i++) {
    const center = (i + 0.5) / scale;
    const lo = Math.max(0, Math.floor(center - support));
    const hi = Math.min(src - 1, Math.ceil(center + support));
    let sum = 0;
    const n = Math.min(taps, hi - lo + 1);
    for (let k = 0; k < n; k++) {
      const w = lanczos3((lo + k + 0.5 - center) / stretch);
      weights[i * taps + k] = w;
      sum += w;
    }
    for (let k = 0; k < n; k++) weights[i * taps + k] /= sum || 1;
    start[i] = lo;
    count[i] = n;
  }
  return { start, count, weights, taps };
}

const TO_LINEAR = (() => {
  const t = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    const c = i / 255;
    t[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }
  return t;
})();

// linear [0,1] -> sRGB byte through a 4096-step table.
const TO_SRGB = (() => {
  const t = new Uint8Array(4097);
  for (let i = 0; i <= 4096; i++) {
    const c = i / 4096;
    const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
    t[i] = Math.max(0, Math.min(255, Math.round(s * 255)));
  }
  return t;
})();

export class StreamingResizer {
  private readonly kx: Kernel;
  private readonly ky: Kernel;
  /** Horizontally resampled rows, premultiplied linear RGBA, indexed by source row mod ring size. */
  private readonly ring: Float32Array[];
  private readonly acc: Float32Array;
  /** One source row in premultiplied linear light. */
  private readonly line: Float32Array;
  private received = 0;
  private produced = 0;

  constructor(
    readonly srcWidth: number,
    readonly srcHeight: number,
    readonly width: number,
    readonly height: number,
  ) {
    this.kx = kernel(srcWidth, width);
    this.ky = kernel(srcHeight, height);
    const ringSize = this.ky.taps + 2;
    this.ring = Array.from({ length: ringSize }, () => new Float32Array(width * 4));
    this.acc = new Float32Array(width * 4);
    this.line = new Float32Array(srcWidth * 4);
  }

  private horizontal(src: Uint8Array | Uint8ClampedArray, at: number, out: Float32Array): void {
    const { start, count, weights, taps } = this.kx;
    // Each source pixel feeds several taps: convert the row to premultiplied linear light once.
    const lin = this.line;
    for (let x = 0, o = at; x < this.srcWidth * 4; x += 4, o += 4) {
      const alpha = src[o + 3] / 255;
      lin[x] = TO_LINEAR[src[o]] * alpha;
      lin[x + 1] = TO_LINEAR[src[o + 1]] * alpha;
      lin[x + 2] = TO_LINEAR[src[o + 2]] * alpha;
      lin[x + 3] = alpha;
    }
    for (let x = 0; x < this.width; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      const n = count[x],
        w0 = x * taps;
      for (let k = 0, o = start[x] * 4; k < n; k++, o += 4) {
        const w = weights[w0 + k];
        r += lin[o] * w;
        g += lin[o + 1] * w;
        b += lin[o + 2] * w;
        a += lin[o + 3] * w;
      }
      out[x * 4] = r;
      out[x * 4 + 1] = g;
      out[x * 4 + 2] = b;
      out[x * 4 + 3] = a;
    }
  }

  /** Output rows whose kernels are covered by the rows received so far. */
  private emit(): Pixels | null {
    const { start, count, weights, taps } = this.ky;
    let last = this.produced;
    while (last < this.height && start[last] + count[last] <= this.received) last++;
    if (last === this.produced) return null;
    const rows = last - this.produced;
    const out = new Uint8Array(rows * this.width * 4);
    const size = this.ring.length;
    const acc = this.acc;
    const n4 = this.width * 4;
    for (let y = this.produced; y < last; y++) {
      const s0 = start[y],
        n = count[y],
        w0 = y * taps;
      acc.fill(0);
      for (let k = 0; k < n; k++) {
        const row = this.ring[(s0 + k) % size];
        const w = weights[w0 + k];
        for (let i = 0; i < n4; i++) acc[i] += row[i] * w;
      }
      const o = (y - this.produced) * n4;
      for (let x = 0; x < n4; x += 4) {
        const a = acc[x + 3];
        const alpha = a <= 0 ? 0 : a >= 1 ? 1 : a;
        const un = alpha > 0 ? 4096 / a : 0;
        const r = Math.round(acc[x] * un),
          g = Math.round(acc[x + 1] * un),
          b = Math.round(acc[x + 2] * un);
        out[o + x] = TO_SRGB[r < 0 ? 0 : r > 4096 ? 4096 : r];
        out[o + x + 1] = TO_SRGB[g < 0 ? 0 : g > 4096 ? 4096 : g];
        out[o + x + 2] = TO_SRGB[b < 0 ? 0 : b > 4096 ? 4096 : b];
        out[o + x + 3] = Math.round(alpha * 255);
      }
    }
    this.produced = last;
    return { data: out, width: this.width, height: rows };
  }

  /** Feeds source rows in order; answers the output rows now complete (or null). */
  push(rows: Pixels): Pixels[] {
    const out: Pixels[] = [];
    const size = this.ring.length;
    for (let r = 0; r < rows.height; r++) {
      // The oldest ring row must no longer be needed before it is overwritten.
      const ready = this.emit();
      if (ready) out.push(ready);
      this.horizontal(rows.data, r * rows.width * 4, this.ring[this.received % size]);
      this.received++;
    }
    const ready = this.emit();
    if (ready) out.push(ready);
    return out;
  }

  get done(): boolean {
    return this.produced === this.height;
  }
}
