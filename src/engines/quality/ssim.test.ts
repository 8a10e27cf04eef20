import { describe, expect, it } from "vitest";
import { ssim, type GrayImage } from "./ssim";

// The sliding-sum SSIM behind quality_score against the textbook formula
// computed window by window.

function image(width: number, height: number, pixel: (x: number, y: number) => number): GrayImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = Math.max(0, Math.min(255, Math.round(pixel(x, y))));
  return { data, width, height };
}

function naive(a: GrayImage, b: GrayImage): number {
  const [C1, C2] = [(0.01 * 255) ** 2, (0.03 * 255) ** 2];
  let total = 0;
  let n = 0;
  for (let y = 0; y + 8 <= a.height; y += 2) {
    for (let x = 0; x + 8 <= a.width; x += 2) {
      let [sa, sb, saa, sbb, sab] = [0, 0, 0, 0, 0];
      for (let j = 0; j < 8; j++) {
        for (let i = 0; i < 8; i++) {
          const p = a.data[(y + j) * a.width + x + i];
          const q = b.data[(y + j) * a.width + x + i];
          sa += p;
          sb += q;
          saa += p * p;
          sbb += q * q;
          sab += p * q;
        }
      }
      const [ma, mb] = [sa / 64, sb / 64];
      const [va, vb, cov] = [saa / 64 - ma * ma, sbb / 64 - mb * mb, sab / 64 - ma * mb];
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      n++;
    }
  }
  return total / n;
}

describe("ssim", () => {
  let seed = 3;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const scene = image(97, 61, (x, y) => 128 + 60 * Math.sin(x / 7) * Math.cos(y / 5));

  it("is 1 for identical images and matches the window-by-window formula otherwise", () => {
    expect(ssim(scene, scene)).toBe(1);
    const noisy = image(97, 61, (x, y) => scene.data[y * 97 + x] + (rnd() - 0.5) * 40);
    const blurred = image(97, 61, (x, y) => (scene.data[y * 97 + x] + scene.data[y * 97 + Math.min(96, x + 1)]) / 2);
    for (const other of [noisy, blurred]) expect(ssim(scene, other)).toBeCloseTo(naive(scene, other), 10);
    expect(ssim(scene, noisy)).toBeLessThan(ssim(scene, blurred));
  });

  it("refuses images of different sizes and compares tiny ones exactly", () => {
    expect(() =>
      ssim(
        scene,
        image(10, 10, () => 0),
      ),
    ).toThrow();
    expect(
      ssim(
        image(4, 4, () => 9),
        image(4, 4, () => 9),
      ),
    ).toBe(1);
    expect(
      ssim(
        image(4, 4, () => 9),
        image(4, 4, () => 10),
      ),
    ).toBe(0);
  });
});
