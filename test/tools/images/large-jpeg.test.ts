import { describe, expect, it } from "vitest";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { ok } from "./client";
import { file, photo, withOrientation } from "../../support/images/fixtures";
import { formatOf, sizeOf } from "./inspect";
import { pixelsOf } from "../../support/images/pixels";
import type { Pixels } from "../../../src/engines/images/types";

// JPEGs over 2 megapixels take the band-by-band path (bounded memory). Its
// output must look like the input everywhere, seams between bands included.

function meanAbsDiff(a: Pixels, b: Pixels, rows?: [number, number]): number {
  const [y0, y1] = rows ?? [0, a.height];
  let sum = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = 0; x < a.width; x++) {
      const o = (y * a.width + x) * 4;
      for (let c = 0; c < 3; c++) sum += Math.abs(a.data[o + c] - b.data[o + c]);
      n += 3;
    }
  }
  return sum / n;
}

async function bigJpeg(progressive: boolean): Promise<{ px: Pixels; bytes: Uint8Array }> {
  const px = photo(2400, 1250);
  // Baseline input written in one go (the band writer is what is under test).
  const bytes = await encodeJpeg(px, 95, { progressive });
  return { px, bytes };
}

describe("large JPEGs (band path)", () => {
  for (const progressive of [false, true]) {
    it(`compresses a 3 MP ${progressive ? "progressive" : "baseline"} JPEG without seams`, async () => {
      const { bytes } = await bigJpeg(progressive);
      const source = await pixelsOf(bytes);
      const out = await ok("/api/v1/image/compress", { file: file(bytes, "big.jpg"), quality: "80" });
      expect(formatOf(out.bytes)).toBe("jpeg");
      expect(sizeOf(out.bytes)).toEqual([2400, 1250]);
      expect(out.bytes.length).toBeLessThan(bytes.length);
      const back = await pixelsOf(out.bytes);
      const overall = meanAbsDiff(source, back);
      expect(overall).toBeLessThan(4);
      // Band seams sit at multiples of 16 rows; none may stand out.
      for (let y = 16; y < 1250 - 16; y += 16) expect(meanAbsDiff(source, back, [y - 1, y + 1]), `rows ${y - 1}..${y}`).toBeLessThan(overall * 2 + 1);
    });
  }

  it("resizes a 3 MP JPEG in bands, keeping the picture", async () => {
    const { px, bytes } = await bigJpeg(false);
    const out = await ok("/api/v1/image/resize", { file: file(bytes, "big.jpg"), width: "600" });
    expect(sizeOf(out.bytes)).toEqual([600, 313]);
    const small = await pixelsOf(out.bytes);
    // The disc (blue 200) sits in the middle, the gradient runs left to right.
    const centre = (156 * 600 + 300) * 4;
    expect(Math.abs(small.data[centre + 2] - 200)).toBeLessThan(12);
    const left = (156 * 600 + 10) * 4,
      right = (156 * 600 + 590) * 4;
    expect(small.data[right] - small.data[left]).toBeGreaterThan(200);
    expect(px.width).toBe(2400);
  });

  it("turns a rotated 3 MP JPEG upright when resizing", async () => {
    const { bytes } = await bigJpeg(false);
    const out = await ok("/api/v1/image/resize", { file: file(withOrientation(bytes, 6), "big.jpg"), height: "600", target_format: "png" });
    expect(formatOf(out.bytes)).toBe("png");
    expect(sizeOf(out.bytes)).toEqual([313, 600]);
    expect(out.meta.original_dimensions).toBe("1250x2400");
  });
});
