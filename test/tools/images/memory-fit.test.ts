import { describe, expect, it } from "vitest";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { estimateBytes, IMAGE_CALL_BUDGET } from "../../../src/engines/images/memory-fit";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { fails, ok, withKey } from "./client";
import { file, photo } from "./fixtures";
import { formatOf, sizeOf } from "./inspect";
import { pngHeaderOnly } from "../../support/forged";

const MiB = 1024 * 1024;


describe("memory fit of image calls (128 MB Worker)", () => {
  it("estimates from measured per-pixel costs: a 12 MP AVIF cannot fit, a banded 24 MP JPEG can", () => {
    expect(estimateBytes({ input: { format: "avif", pixels: 12.2e6 }, output: { format: "png", pixels: 12.2e6 }, bandedInput: false })).toBeGreaterThan(250 * MiB);
    expect(estimateBytes({ input: { format: "jpeg", pixels: 24e6 }, output: { format: "jpeg", pixels: 24e6 }, bandedInput: true })).toBeLessThan(IMAGE_CALL_BUDGET);
    expect(estimateBytes({ input: { format: "png", pixels: 1e6 }, output: { format: "webp", pixels: 1e6 }, bandedInput: false })).toBeLessThan(30 * MiB);
    // Decode-only estimate (before the target size is known).
    expect(estimateBytes({ input: { format: "webp", pixels: 4e6 }, bandedInput: false })).toBeLessThan(40 * MiB);
  });

  it("refuses from the header, before decoding, with 422 image_too_large and charges nothing", async () => {
    const acct = await accountWithKey({ credits: 50 });
    const big = file(pngHeaderOnly(5000, 4000), "big.png");
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
