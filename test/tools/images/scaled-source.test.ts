import { describe, expect, it } from "vitest";
import { decodeJpeg, encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { parseJpeg } from "../../../src/engines/images/jpeg/markers";
import { canDecodeScaled, ScaledJpegSource, scaleDenominator } from "../../../src/engines/images/jpeg/scaled-source";
import { collect } from "../../../src/engines/images/memory/streaming";
import type { Pixels } from "../../../src/engines/images/types";
import { ok } from "./client";
import { cmykJpeg, file, photo } from "../../support/images/fixtures";
import { sizeOf } from "./inspect";
import { pixelsOf } from "../../support/images/pixels";

// Big JPEG downscales start from a 1/2, 1/4 or 1/8 scale decode in the DCT
// domain. Each reduced pixel must be (close to) the mean of the full-size
// pixels it stands for, as libjpeg's own decode gives them.

/** Mean absolute difference between `small` and `full` averaged over d x d cells. */
function diffToBoxMean(small: Pixels, full: Pixels, d: number): number {
  let sum = 0,
    n = 0;
  for (let y = 0; y < small.height - 1; y++) {
    for (let x = 0; x < small.width - 1; x++) {
      for (let c = 0; c < 3; c++) {
        let acc = 0;
        for (let dy = 0; dy < d; dy++) for (let dx = 0; dx < d; dx++) acc += full.data[((y * d + dy) * full.width + x * d + dx) * 4 + c];
        sum += Math.abs(small.data[(y * small.width + x) * 4 + c] - acc / (d * d));
        n++;
      }
    }
  }
  return sum / n;
}

describe("reduced-scale JPEG decoding", () => {
  it("picks the largest reduction that leaves Lanczos a factor of 1.5", () => {
    expect(scaleDenominator(6000, 4000, 1200, 800)).toBe(2);
    expect(scaleDenominator(6000, 4000, 1600, 1067)).toBe(2);
    expect(scaleDenominator(6000, 4000, 1000, 666)).toBe(4);
    expect(scaleDenominator(6000, 4000, 1000, 667)).toBe(2);
    expect(scaleDenominator(6000, 4000, 500, 333)).toBe(8);
    expect(scaleDenominator(1600, 2440, 1200, 1830)).toBe(1);
    expect(scaleDenominator(6000, 4000, 3000, 100)).toBe(1);
  });

  it("only takes greyscale and YCbCr", async () => {
    expect(canDecodeScaled(parseJpeg(await encodeJpeg(photo(32, 32), 80)))).toBe(true);
    expect(canDecodeScaled(parseJpeg(cmykJpeg()))).toBe(false);
  });

  for (const d of [2, 4, 8]) {
    for (const progressive of [false, true]) {
      it(`at 1/${d}, ${progressive ? "progressive" : "baseline"}: each pixel is the mean of its ${d}x${d} cell`, async () => {
        const bytes = await encodeJpeg(photo(1203, 805), 90, { progressive, fixedSubsampling: true });
        const full = await decodeJpeg(bytes);
        const src = new ScaledJpegSource(bytes, parseJpeg(bytes), d);
        expect([src.width, src.height]).toEqual([Math.ceil(1203 / d), Math.ceil(805 / d)]);
        const small = await collect(src.bands(1 << 18), src.width, src.height);
        // The grain of `photo` averages out; what is left is rounding and chroma replication.
        expect(diffToBoxMean(small, full, d)).toBeLessThan(d === 2 ? 2.5 : 2);
      });
    }
  }

  it("resizes a big JPEG from a reduced decode, keeping the picture", async () => {
    const bytes = await encodeJpeg(photo(2400, 1440), 85, { fixedSubsampling: true });
    const out = await ok("/api/v1/image/resize", { file: file(bytes, "big.jpg"), width: "500" });
    expect(sizeOf(out.bytes)).toEqual([500, 300]);
    const px = await pixelsOf(out.bytes);
    // The disc (blue 200) sits in the middle, red rises left to right, green top to bottom.
    const at = (x: number, y: number) => Array.from(px.data.subarray((y * 500 + x) * 4, (y * 500 + x) * 4 + 3));
    expect(Math.abs(at(250, 150)[2] - 200)).toBeLessThan(10);
    expect(at(490, 150)[0] - at(10, 150)[0]).toBeGreaterThan(200);
    expect(at(30, 290)[1] - at(30, 10)[1]).toBeGreaterThan(200);
  });
});
