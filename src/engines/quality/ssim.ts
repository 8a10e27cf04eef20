// Structural similarity (Wang et al. 2004) of two grayscale rasters, the
// measure behind Compress PDF's quality_score. Means, variances and the
// covariance come from 8x8 windows stepping by 2 pixels (a 4x saving that
// moves the mean by well under 0.001 on rendered pages). Window sums slide:
// per-column sums over the window's rows are updated as the window moves
// down, then summed across as it moves right, so memory is five rows of
// numbers whatever the page size (summed-area tables cost 88 MB on a
// 150 dpi page, far too much inside a 128 MB isolate).

export interface GrayImage {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

const WINDOW = 8;
const STEP = 2;
const N = WINDOW * WINDOW;
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

/** Per-column sums of a, b, a², b², ab over the rows currently in the window. */
class ColumnSums {
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly aa: Float64Array;
  readonly bb: Float64Array;
  readonly ab: Float64Array;

  constructor(
    private readonly x: GrayImage,
    private readonly y: GrayImage,
  ) {
    const w = x.width;
    [this.a, this.b, this.aa, this.bb, this.ab] = [new Float64Array(w), new Float64Array(w), new Float64Array(w), new Float64Array(w), new Float64Array(w)];
  }

  /** Adds (sign 1) or removes (sign -1) one image row. */
  row(r: number, sign: 1 | -1): void {
    const w = this.x.width;
    const xs = this.x.data;
    const ys = this.y.data;
    for (let c = 0, i = r * w; c < w; c++, i++) {
      const p = xs[i];
      const q = ys[i];
      this.a[c] += sign * p;
      this.b[c] += sign * q;
      this.aa[c] += sign * p * p;
      this.bb[c] += sign * q * q;
      this.ab[c] += sign * p * q;
    }
  }
}

function windowIndex(m: number[]): number {
  const [sa, sb, saa, sbb, sab] = m;
  const ma = sa / N;
  const mb = sb / N;
  const va = saa / N - ma * ma;
  const vb = sbb / N - mb * mb;
  const cov = sab / N - ma * mb;
  return ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
}

/** Sum of SSIM over the windows of one window-row, and how many there were. */
function scanAcross(cols: ColumnSums, width: number): [number, number] {
  const arrays = [cols.a, cols.b, cols.aa, cols.bb, cols.ab];
  const m = [0, 0, 0, 0, 0];
  for (let c = 0; c < WINDOW; c++) for (let k = 0; k < 5; k++) m[k] += arrays[k][c];
  let total = 0;
  let count = 0;
  for (let col = 0; col + WINDOW <= width; col += STEP) {
    total += windowIndex(m);
    count++;
    for (let s = 0; s < STEP && col + WINDOW + s < width; s++) {
      for (let k = 0; k < 5; k++) m[k] += arrays[k][col + WINDOW + s] - arrays[k][col + s];
    }
  }
  return [total, count];
}

/** Mean SSIM in [-1, 1] (1 = identical). Both images must have the same size. */
export function ssim(x: GrayImage, y: GrayImage): number {
  if (x.width !== y.width || x.height !== y.height) throw new Error("ssim: images differ in size");
  if (x.width < WINDOW || x.height < WINDOW) return exactMatch(x, y);
  const cols = new ColumnSums(x, y);
  for (let r = 0; r < WINDOW; r++) cols.row(r, 1);
  let total = 0;
  let count = 0;
  for (let row = 0; row + WINDOW <= x.height; row += STEP) {
    const [t, c] = scanAcross(cols, x.width);
    total += t;
    count += c;
    for (let s = 0; s < STEP && row + WINDOW + s < x.height; s++) {
      cols.row(row + s, -1);
      cols.row(row + WINDOW + s, 1);
    }
  }
  return total / count;
}

function exactMatch(x: GrayImage, y: GrayImage): number {
  for (let i = 0; i < x.data.length; i++) if (x.data[i] !== y.data[i]) return 0;
  return 1;
}
