import { describe, expect, it } from "vitest";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { estimateBytes, IMAGE_CALL_BUDGET, largestFitting, type MemoryPlan } from "../../../src/engines/images/memory/memory-fit";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { fails, ok, withKey } from "./client";
import { file, photo } from "../../support/images/fixtures";
import { formatOf, sizeOf } from "./inspect";
import { pngHeaderOnly } from "../../support/forged";

const MiB = 1024 * 1024;

describe("memory fit of image calls (128 MB Worker)", () => {
  it("estimates from measured per-pixel costs: whole decodes grow with the picture, banded roads do not", () => {
    const whole = (format: "avif" | "png" | "webp", pixels: number) => ({ input: { format, pixels }, source: "whole" as const });
    expect(estimateBytes({ ...whole("avif", 12.2e6), output: { format: "png", width: 3024, height: 4032, sink: "png-rows" } })).toBeGreaterThan(250 * MiB);
    const jpeg24 = { input: { format: "jpeg" as const, pixels: 24e6 }, source: "jpeg-bands" as const };
    expect(estimateBytes({ ...jpeg24, output: { format: "jpeg", width: 6000, height: 4000, sink: "jpeg-bands" } })).toBeLessThan(IMAGE_CALL_BUDGET);
    expect(estimateBytes({ ...jpeg24, output: { format: "avif", width: 6000, height: 4000, sink: "avif-grid" } })).toBeLessThan(IMAGE_CALL_BUDGET);
    // Collecting 24 MP of bands for a whole-image WebP encoder cannot fit.
    expect(estimateBytes({ ...jpeg24, output: { format: "webp", width: 6000, height: 4000, sink: "whole" } })).toBeGreaterThan(IMAGE_CALL_BUDGET);
    const png24 = { input: { format: "png" as const, pixels: 24e6 }, source: "png-bands" as const };
    expect(estimateBytes({ ...png24, output: { format: "jpeg", width: 6000, height: 4000, sink: "jpeg-bands" } })).toBeLessThan(IMAGE_CALL_BUDGET);
    expect(estimateBytes({ ...whole("png", 1e6), output: { format: "webp", width: 1000, height: 1000, sink: "whole" } })).toBeLessThan(30 * MiB);
    // Decode-only estimate (before the target size is known).
    expect(estimateBytes(whole("webp", 4e6))).toBeLessThan(40 * MiB);
  });

  it("names a largest size below which every size fits, though a grid's estimate dips and rises with its tiles", () => {
    // A 10-bit 4:4:4 single frame to a grid AVIF: the tiles, and aom's worst heap with them, follow the picture's sides.
    const plan = (width: number, height: number): MemoryPlan => ({
      input: { format: "avif", pixels: width * height, avifBandsBytesPerPixel: 7.7, opaque: true },
      source: "avif-bands",
      output: { format: "avif", width, height, sink: "avif-grid" },
    });
    const sized = (pixels: number): [number, number] => {
      const h = Math.floor(Math.sqrt((pixels * 2) / 3) / 2) * 2;
      return [Math.floor((h * 3) / 2 / 2) * 2, h];
    };
    const largest = largestFitting(plan(6000, 4000));
    expect(largest).toBeGreaterThan(3e6);
    let rises = 0;
    let previous = 0;
    for (let pixels = largest; pixels > largest / 2; pixels -= 4000) {
      const bytes = estimateBytes(plan(...sized(pixels)));
      expect(bytes, `${sized(pixels).join(" x ")}`).toBeLessThanOrEqual(IMAGE_CALL_BUDGET);
      if (previous && bytes > previous) rises++;
      previous = bytes;
    }
    // The estimate is not monotonic here, which is what the search must survive.
    expect(rises).toBeGreaterThan(0);
  });

  it("refuses from the header, before decoding, with 422 image_too_large and charges nothing", async () => {
    const acct = await accountWithKey({ credits: 50 });
    // Interlaced (Adam7) PNGs cannot be read in row order, so they are decoded whole.
    const big = file(pngHeaderOnly(5000, 4000, { interlaced: true }), "big.png");
    for (const [path, extra] of [
      ["/api/v1/image/convert", { target_format: "webp" }],
      ["/api/v1/image/compress", {}],
      ["/api/v1/image/resize", { width: "100" }],
    ] as const) {
      expect(await fails(path, { file: big, ...extra }, 422, withKey(acct.key))).toBe("image_too_large");
    }
    expect(await balanceOf(acct.token)).toBe(50);
  });

  it("converts a JPEG over 2 MP through the banded path instead of decoding it whole", async () => {
    const jpeg = await encodeJpeg(photo(2400, 1200), 85);
    const out = await ok("/api/v1/image/convert", { file: file(jpeg, "wide.jpg"), target_format: "png" });
    expect(formatOf(out.bytes)).toBe("png");
    expect(sizeOf(out.bytes)).toEqual([2400, 1200]);
  });
});
