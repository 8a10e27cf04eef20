// Structural similarity (Wang et al. 2004) of two grayscale rasters, the
// measure behind Compress PDF's quality_score. Means, variances and the
// covariance over 8x8 windows come from summed-area tables, so a page costs
// O(pixels) whatever the window; windows step by 2 pixels (a 4x saving that
// changes the mean by well under 0.001 on rendered pages).

export interface GrayImage {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

const WINDOW = 8;
const STEP = 2;
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

interface Tables {
  a: Float64Array;
  b: Float64Array;
  aa: Float64Array;
  bb: Float64Array;
  ab: Float64Array;
}

function summedAreaTables(x: GrayImage, y: GrayImage): Tables {
  const w = x.width;
  const stride = w + 1;
  const size = stride * (x.height + 1);
  const t: Tables = { a: new Float64Array(size), b: new Float64Array(size), aa: new Float64Array(size), bb: new Float64Array(size), ab: new Float64Array(size) };
  for (let row = 0; row < x.height; row++) {
    let ra = 0, rb = 0, raa = 0, rbb = 0, rab = 0;
    for (let col = 0; col < w; col++) {
      const va = x.data[row * w + col];
      const vb = y.data[row * w + col];
      ra += va; rb += vb; raa += va * va; rbb += vb * vb; rab += va * vb;
      const i = (row + 1) * stride + col + 1;
      const up = i - stride;
      t.a[i] = t.a[up] + ra; t.b[i] = t.b[up] + rb; t.aa[i] = t.aa[up] + raa; t.bb[i] = t.bb[up] + rbb; t.ab[i] = t.ab[up] + rab;
    }
  }
  return t;
}

/** Mean SSIM in [-1, 1] (1 = identical). Both images must have the same size. */
export function ssim(x: GrayImage, y: GrayImage): number {
  if (x.width !== y.width || x.height !== y.height) throw new Error("ssim: images differ in size");
  if (x.width < WINDOW || x.height < WINDOW) return exactMatch(x, y);
  const t = summedAreaTables(x, y);
  const stride = x.width + 1;
  const n = WINDOW * WINDOW;
  const box = (s: Float64Array, col: number, row: number) => {
    const top = row * stride, bottom = (row + WINDOW) * stride;
    return s[bottom + col + WINDOW] - s[top + col + WINDOW] - s[bottom + col] + s[top + col];
  };
  let total = 0;
  let count = 0;
  for (let row = 0; row + WINDOW <= x.height; row += STEP) {
    for (let col = 0; col + WINDOW <= x.width; col += STEP) {
      const ma = box(t.a, col, row) / n;
      const mb = box(t.b, col, row) / n;
      const va = box(t.aa, col, row) / n - ma * ma;
      const vb = box(t.bb, col, row) / n - mb * mb;
      const cov = box(t.ab, col, row) / n - ma * mb;
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      count++;
    }
  }
  return total / count;
}

function exactMatch(x: GrayImage, y: GrayImage): number {
  for (let i = 0; i < x.data.length; i++) if (x.data[i] !== y.data[i]) return 0;
  return 1;
}
