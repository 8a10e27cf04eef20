import { describe, expect, it } from "vitest";
import { ok } from "./client";
import { cmykJpeg, file } from "../../support/images/fixtures";
import { formatOf, sizeOf } from "./inspect";
import { near, pixelsOf, rgbaAt } from "../../support/images/pixels";

describe("CMYK JPEG", () => {
  it("converts Adobe CMYK to the right RGB colours", async () => {
    const input = cmykJpeg(64, 32);
    for (const target of ["png", "jpg", "webp"]) {
      const out = await ok("/api/v1/image/convert", { file: file(input, "cmyk.jpg"), target_format: target });
      expect(sizeOf(out.bytes)).toEqual([64, 32]);
      const px = await pixelsOf(out.bytes);
      expect(near(rgbaAt(px, 8, 16), [0, 255, 255, 255], 12), `${target} left ${rgbaAt(px, 8, 16)}`).toBe(true);
      expect(near(rgbaAt(px, 56, 16), [0, 0, 0, 255], 12), `${target} right ${rgbaAt(px, 56, 16)}`).toBe(true);
    }
  });

  it("resizes CMYK into a three-component (RGB) JPEG", async () => {
    const out = await ok("/api/v1/image/resize", { file: file(cmykJpeg(64, 32), "cmyk.jpg"), width: "32", target_format: "jpg" });
    expect(formatOf(out.bytes)).toBe("jpeg");
    const sof = out.bytes.findIndex((v, i) => v === 0xff && (out.bytes[i + 1] === 0xc0 || out.bytes[i + 1] === 0xc2 || out.bytes[i + 1] === 0xc1));
    expect(out.bytes[sof + 9]).toBe(3);
    const px = await pixelsOf(out.bytes);
    expect(near(rgbaAt(px, 4, 8), [0, 255, 255, 255], 16), `${rgbaAt(px, 4, 8)}`).toBe(true);
  });
});
