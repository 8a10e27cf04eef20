import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { fails, ok, withKey } from "./client";
import { file, halves, jpegOf, photo, pngOf, withOrientation } from "../../support/images/fixtures";
import { formatOf, sizeOf } from "./inspect";
import { near, pixelsOf, rgbaAt } from "../../support/images/pixels";

const PATH = "/api/v1/image/resize";

describe("resize image", () => {
  it("keeps the aspect ratio when only the width is given", async () => {
    const acct = await accountWithKey({ credits: 50 });
    const out = await ok(PATH, { file: file(await jpegOf(photo(800, 600)), "a.jpg"), width: "400" }, withKey(acct.key));
    expect(formatOf(out.bytes)).toBe("jpeg");
    expect(sizeOf(out.bytes)).toEqual([400, 300]);
    expect(out.meta).toMatchObject({ width: 400, height: 300, original_dimensions: "800x600", format: "jpeg" });
    expect(out.credits).toBe("10");
    expect(await balanceOf(acct.token)).toBe(40);
  });

  it("keeps the aspect ratio when only the height is given", async () => {
    const out = await ok(PATH, { file: file(await pngOf(photo(300, 200)), "a.png"), height: "50" });
    expect(formatOf(out.bytes)).toBe("png");
    expect(sizeOf(out.bytes)).toEqual([75, 50]);
  });

  it("uses both sides exactly when both are given, and can upscale", async () => {
    const out = await ok(PATH, { file: file(await pngOf(photo(100, 100)), "a.png"), width: "250", height: "40" });
    expect(sizeOf(out.bytes)).toEqual([250, 40]);
  });

  it("converts with target_format and quality", async () => {
    const input = await jpegOf(photo(400, 300));
    for (const [target, format] of [
      ["webp", "webp"],
      ["PNG", "png"],
      ["jpeg", "jpeg"],
      ["avif", "avif"],
      ["gif", "gif"],
      ["bmp", "bmp"],
      ["tiff", "tiff"],
    ] as const) {
      const out = await ok(PATH, { file: file(input, "a.jpg"), width: "120", target_format: target, quality: "60" });
      expect(formatOf(out.bytes), target).toBe(format);
      expect(sizeOf(out.bytes), target).toEqual([120, 90]);
      expect(out.meta.format).toBe(format);
    }
  });

  it("lower quality gives a smaller file", async () => {
    const input = await pngOf(photo(400, 300));
    const hi = await ok(PATH, { file: file(input, "a.png"), width: "200", target_format: "webp", quality: "95" });
    const lo = await ok(PATH, { file: file(input, "a.png"), width: "200", target_format: "webp", quality: "10" });
    expect(lo.bytes.length).toBeLessThan(hi.bytes.length);
  });

  it("applies EXIF orientation before resizing", async () => {
    // Stored: red left, blue right; orientation 6 turns it 90° clockwise: red on top.
    const input = withOrientation(await jpegOf(halves(200, 100), 95), 6);
    const out = await ok(PATH, { file: file(input, "r.jpg"), width: "50" });
    expect(sizeOf(out.bytes)).toEqual([50, 100]);
    const px = await pixelsOf(out.bytes);
    expect(near(rgbaAt(px, 25, 10), [255, 0, 0, 255], 40)).toBe(true);
    expect(near(rgbaAt(px, 25, 90), [0, 0, 255, 255], 40)).toBe(true);
  });

  itWithCorpus("resizes the first frame of an animated GIF and says so", async () => {
    const out = await ok(PATH, { file: file(await corpusFile("images/libvips/cogs.gif"), "cogs.gif"), width: "170" });
    expect(formatOf(out.bytes)).toBe("gif");
    expect(sizeOf(out.bytes)).toEqual([170, 154]);
    expect(out.meta.notes?.join(" ")).toMatch(/first of 5 frames/);
  });

  it("refuses a missing size, sides out of 1..20000 and computed sides out of range, charging nothing", async () => {
    const acct = await accountWithKey({ credits: 50 });
    const auth = withKey(acct.key);
    const small = file(await pngOf(photo(40, 2)), "thin.png");
    expect(await fails(PATH, { file: small }, 422, auth)).toBe("validation_failed");
    expect(await fails(PATH, { file: small, width: "0" }, 422, auth)).toBe("validation_failed");
    expect(await fails(PATH, { file: small, height: "20001" }, 422, auth)).toBe("validation_failed");
    expect(await fails(PATH, { file: small, width: "abc" }, 422, auth)).toBe("validation_failed");
    // 40x2 to width 1 gives height 0.05 -> 0; to height 20000 gives width 400000.
    expect(await fails(PATH, { file: small, width: "1" }, 422, auth)).toBe("validation_failed");
    expect(await fails(PATH, { file: small, height: "20000" }, 422, auth)).toBe("validation_failed");
    expect(await fails(PATH, { file: small, width: "100", target_format: "jpeg2000" }, 422, auth)).toBe("validation_failed");
    expect(await balanceOf(acct.token)).toBe(50);
  });

  it("refuses a target over 100 megapixels as image_too_large", async () => {
    const code = await fails(PATH, { file: file(await pngOf(photo(20, 20)), "a.png"), width: "20000", height: "20000" }, 422);
    expect(code).toBe("image_too_large");
  });
});
