// Rows of a decoded AV1 picture (YUV planes in the decoder's heap) turned
// into RGBA, a band at a time. The arithmetic is libavif's, so that this road
// and the whole one (jSquash's libavif) give the same pixels within rounding:
// matrix coefficients from colr nclx or the sequence header, limited or full
// range, 10 and 12 bits scaled to 8, and chroma upsampled bilinearly with
// 3:1 weights (chroma sited between luma samples).

export type Plane = Uint8Array | Uint16Array;

export interface Picture {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 4:0:0, 1 4:2:0, 2 4:2:2, 3 4:4:4 (dav1d's layout numbers). */
  layout: number;
  /** Planes and strides in samples (not bytes); U and V absent for 4:0:0. */
  y: Plane;
  u?: Plane;
  v?: Plane;
  yStride: number;
  cStride: number;
  matrix: number;
  fullRange: boolean;
}

/** Kr and Kb by matrix coefficients (ISO/IEC 23091-2); unspecified and unknown ones as BT.601, like libavif. */
function weights(matrix: number): [number, number] {
  if (matrix === 1) return [0.2126, 0.0722];
  if (matrix === 9 || matrix === 10) return [0.2627, 0.0593];
  if (matrix === 4) return [0.3, 0.11];
  if (matrix === 7) return [0.212, 0.087];
  return [0.299, 0.114];
}

/**
 * The conversion as affine functions of the samples (so chroma can be
 * interpolated before it is converted): 8-bit value = (sample - offset) * scale.
 */
export interface Coefficients {
  yOff: number;
  yScale: number;
  cOff: number;
  cScale: number;
  /** R = Y + crR*Cr, G = Y + cbG*Cb + crG*Cr, B = Y + cbB*Cb, Cb and Cr already offset and scaled. */
  crR: number;
  cbB: number;
  cbG: number;
  crG: number;
  /** Identity (GBR): the planes are G, B and R, only scaled for range. */
  identity: boolean;
}

export function coefficientsOf(bitDepth: number, matrix: number, fullRange: boolean): Coefficients {
  const max = (1 << bitDepth) - 1;
  const shift = 1 << (bitDepth - 8);
  const [kr, kb] = weights(matrix);
  const kg = 1 - kr - kb;
  const identity = matrix === 0;
  const yOff = fullRange ? 0 : 16 * shift;
  const yScale = 255 / (fullRange ? max : 219 * shift);
  return {
    yOff,
    yScale,
    cOff: identity ? yOff : fullRange ? (max + 1) / 2 : 128 * shift,
    cScale: identity ? yScale : 255 / (fullRange ? max : 224 * shift),
    crR: 2 * (1 - kr),
    cbB: 2 * (1 - kb),
    cbG: (-kb * 2 * (1 - kb)) / kg,
    crG: (-kr * 2 * (1 - kr)) / kg,
    identity,
  };
}

/** Alpha as (sample - offset) * scale (libavif reads an alpha item's range from its own sequence header). */
export function alphaScale(bitDepth: number, fullRange: boolean): [number, number] {
  const shift = 1 << (bitDepth - 8);
  return fullRange ? [0, 255 / ((1 << bitDepth) - 1)] : [16 * shift, 255 / (219 * shift)];
}

/** For each luma column (or row), the nearest chroma one and its other neighbour, clamped; weights 3:1. */
export function neighbours(n: number, sub: boolean, chroma: number): [Int32Array, Int32Array] {
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = sub ? i >> 1 : i;
    const o = !sub ? c : i & 1 ? c + 1 : c - 1;
    a[i] = c;
    b[i] = o < 0 ? 0 : o > chroma - 1 ? chroma - 1 : o;
  }
  return [a, b];
}

export interface Alpha {
  pic: Picture;
  off: number;
  scale: number;
}

/** Converts rows of one picture; built once per picture. */
export class RowConverter {
  private readonly cols: [Int32Array, Int32Array];
  private readonly rows: [Int32Array, Int32Array];
  private readonly wx: number;
  private readonly wy: number;
  private readonly u: Float32Array;
  private readonly v: Float32Array;

  constructor(
    private readonly p: Picture,
    private readonly k: Coefficients,
    private readonly alpha?: Alpha,
  ) {
    const subX = p.layout === 1 || p.layout === 2;
    const subY = p.layout === 1;
    this.cols = neighbours(p.width, subX, subX ? (p.width + 1) >> 1 : p.width);
    this.rows = neighbours(p.height, subY, subY ? (p.height + 1) >> 1 : p.height);
    this.wx = subX ? 0.75 : 1;
    this.wy = subY ? 0.75 : 1;
    this.u = new Float32Array(p.width);
    this.v = new Float32Array(p.width);
  }

  /** Chroma of one luma row, upsampled to full width, offset and scaled. */
  private chroma(y: number): void {
    const { p, k, u, v, wx, wy } = this;
    const [c0, c1] = this.cols;
    const a = this.rows[0][y] * p.cStride;
    const b = this.rows[1][y] * p.cStride;
    const U = p.u as Plane;
    const V = p.v as Plane;
    const w00 = wy * wx;
    const w01 = wy * (1 - wx);
    const w10 = (1 - wy) * wx;
    const w11 = (1 - wy) * (1 - wx);
    for (let x = 0; x < p.width; x++) {
      const i = c0[x];
      const j = c1[x];
      u[x] = (w00 * U[a + i] + w01 * U[a + j] + w10 * U[b + i] + w11 * U[b + j] - k.cOff) * k.cScale;
      v[x] = (w00 * V[a + i] + w01 * V[a + j] + w10 * V[b + i] + w11 * V[b + j] - k.cOff) * k.cScale;
    }
  }

  get width(): number {
    return this.p.width;
  }

  /** RGBA of rows y0..y1 (clamped and rounded by the Uint8ClampedArray). */
  rgba(y0: number, y1: number): Uint8ClampedArray {
    const { p, k, u, v, alpha } = this;
    const w = p.width;
    const out = new Uint8ClampedArray(w * (y1 - y0) * 4);
    for (let y = y0; y < y1; y++) {
      const row = y * p.yStride;
      let o = (y - y0) * w * 4;
      if (p.layout === 0) {
        for (let x = 0; x < w; x++, o += 4) out[o] = out[o + 1] = out[o + 2] = (p.y[row + x] - k.yOff) * k.yScale;
      } else {
        this.chroma(y);
        for (let x = 0; x < w; x++, o += 4) {
          const l = (p.y[row + x] - k.yOff) * k.yScale;
          if (k.identity) {
            out[o] = v[x];
            out[o + 1] = l;
            out[o + 2] = u[x];
          } else {
            out[o] = l + k.crR * v[x];
            out[o + 1] = l + k.cbG * u[x] + k.crG * v[x];
            out[o + 2] = l + k.cbB * u[x];
          }
        }
      }
      o = (y - y0) * w * 4 + 3;
      if (alpha) {
        const a = alpha.pic.y;
        const arow = y * alpha.pic.yStride;
        for (let x = 0; x < w; x++, o += 4) out[o] = (a[arow + x] - alpha.off) * alpha.scale;
      } else {
        for (let x = 0; x < w; x++, o += 4) out[o] = 255;
      }
    }
    return out;
  }
}
