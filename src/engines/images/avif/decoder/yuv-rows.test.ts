import { describe, expect, it } from "vitest";
import { alphaScale, coefficientsOf, RowConverter, type Picture, type Plane } from "./yuv-rows";

// The YUV to RGBA conversion against the forward transform of the standards
// (ITU-R BT.601/709/2020 weights, full and limited range, 8 to 12 bits), on
// pictures of one colour each so chroma upsampling cannot blur the answer;
// then the upsampling itself on a chroma edge.

const WEIGHTS: Record<number, [number, number]> = { 1: [0.2126, 0.0722], 6: [0.299, 0.114], 9: [0.2627, 0.0593] };

interface Case {
  bitDepth: number;
  matrix: number;
  fullRange: boolean;
  layout: number;
}

/** One flat picture of `rgb` (0-255) encoded the way an AV1 encoder would, with 16-bit samples past 8 bits. */
function flat(c: Case, rgb: number[], width = 6, height = 4): Picture {
  const [r, g, b] = rgb.map((v) => v / 255);
  const max = (1 << c.bitDepth) - 1;
  const s = 1 << (c.bitDepth - 8);
  let y: number;
  let cb: number;
  let cr: number;
  if (c.matrix === 0) [y, cb, cr] = [g, b, r];
  else {
    const [kr, kb] = WEIGHTS[c.matrix];
    y = kr * r + (1 - kr - kb) * g + kb * b;
    cb = (b - y) / (2 * (1 - kb));
    cr = (r - y) / (2 * (1 - kr));
  }
  // Codes are clamped to the sample range, as encoders do (full-range red's Cr would be 255.5 in 8 bits).
  const code = (v: number) => Math.min(max, Math.max(0, Math.round(v)));
  const luma = (v: number) => code(c.fullRange ? v * max : 16 * s + 219 * s * v);
  const chroma = (v: number) => (c.matrix === 0 ? luma(v) : code(c.fullRange ? v * max + (max + 1) / 2 : 128 * s + 224 * s * v));
  const make = (n: number, v: number): Plane => (c.bitDepth > 8 ? new Uint16Array(n).fill(v) : new Uint8Array(n).fill(v));
  const cw = c.layout === 1 || c.layout === 2 ? width / 2 : width;
  const ch = c.layout === 1 ? height / 2 : height;
  const mono = c.layout === 0;
  return {
    width,
    height,
    bitDepth: c.bitDepth,
    layout: c.layout,
    y: make(width * height, luma(mono ? r : y)),
    u: mono ? undefined : make(cw * ch, chroma(cb)),
    v: mono ? undefined : make(cw * ch, chroma(cr)),
    yStride: width,
    cStride: cw,
    matrix: c.matrix,
    fullRange: c.fullRange,
  };
}

const COLOURS = [
  [0, 0, 0],
  [255, 255, 255],
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [200, 120, 40],
  [17, 90, 230],
  [128, 128, 128],
];

const CASES: Case[] = [
  { bitDepth: 8, matrix: 6, fullRange: true, layout: 1 },
  { bitDepth: 8, matrix: 1, fullRange: false, layout: 1 },
  { bitDepth: 8, matrix: 6, fullRange: true, layout: 3 },
  { bitDepth: 8, matrix: 1, fullRange: true, layout: 2 },
  { bitDepth: 10, matrix: 9, fullRange: true, layout: 1 },
  { bitDepth: 10, matrix: 1, fullRange: false, layout: 3 },
  { bitDepth: 12, matrix: 6, fullRange: false, layout: 1 },
  { bitDepth: 8, matrix: 0, fullRange: true, layout: 3 },
];

describe("YUV rows to RGBA", () => {
  for (const c of CASES) {
    it(`${c.bitDepth}-bit, matrix ${c.matrix}, ${c.fullRange ? "full" : "limited"} range, layout ${c.layout}`, () => {
      for (const rgb of COLOURS) {
        const p = flat(c, rgb);
        const out = new RowConverter(p, coefficientsOf(c.bitDepth, c.matrix, c.fullRange)).rgba(0, p.height);
        for (let i = 0; i < p.width * p.height; i++) {
          const px = Array.from(out.subarray(i * 4, i * 4 + 4));
          // Rounding to 8-bit (or 7.8 bits of limited range) codes costs at most a level or two.
          px.slice(0, 3).forEach((v, k) => expect(Math.abs(v - rgb[k]), `${rgb} -> ${px}`).toBeLessThanOrEqual(2));
          expect(px[3]).toBe(255);
        }
      }
    });
  }

  it("reads 4:0:0 as grey and scales alpha by its own range", () => {
    const c = { bitDepth: 10, matrix: 6, fullRange: false, layout: 0 };
    const p = flat(c, [77, 77, 77]);
    const alphaPic = flat({ ...c, fullRange: true }, [51, 51, 51]);
    const [off, scale] = alphaScale(10, true);
    const out = new RowConverter(p, coefficientsOf(10, 6, false), { pic: alphaPic, off, scale }).rgba(1, 3);
    expect(out.length).toBe(6 * 2 * 4);
    for (let i = 0; i < out.length; i += 4) expect(Array.from(out.subarray(i, i + 4))).toEqual([77, 77, 77, 51]);
  });

  it("upsamples 4:2:0 chroma with 3:1 weights across an edge", () => {
    // Left half red, right half blue, at the chroma sample on either side of x = 4 (chroma column 2 of 4).
    const c = { bitDepth: 8, matrix: 6, fullRange: true, layout: 1 };
    const red = flat(c, [255, 0, 0], 8, 2);
    const blue = flat(c, [0, 0, 255], 8, 2);
    const u = new Uint8Array(4);
    const v = new Uint8Array(4);
    for (let x = 0; x < 4; x++) {
      u[x] = (x < 2 ? (red.u as Plane) : (blue.u as Plane))[0];
      v[x] = (x < 2 ? (red.v as Plane) : (blue.v as Plane))[0];
    }
    const y = new Uint8Array(16);
    for (let x = 0; x < 8; x++) y[x] = y[8 + x] = (x < 4 ? red.y : blue.y)[0];
    const p: Picture = { ...red, y, u, v, cStride: 4 };
    const out = new RowConverter(p, coefficientsOf(8, 6, true)).rgba(0, 1);
    const cb = (x: number) => out[x * 4 + 2] - out[x * 4 + 1];
    // Far from the edge: the pure colours; next to it, chroma is 3/4 its own side's, 1/4 the other's.
    const near = (x: number, rgb: number[]) => rgb.every((v, k) => Math.abs(out[x * 4 + k] - v) <= 2);
    expect(near(0, [255, 0, 0])).toBe(true);
    expect(near(7, [0, 0, 255])).toBe(true);
    expect(cb(3)).toBeGreaterThan(cb(2));
    expect(cb(4)).toBeLessThan(cb(5));
  });
});
