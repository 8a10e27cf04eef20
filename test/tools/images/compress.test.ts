import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { ok, withKey } from "./client";
import { avifOf, file, gifOf, jpegOf, photo, pngOf, webpOf, withOrientation } from "../../support/images/fixtures";
import { formatOf, jpegApp, pngColorType, sizeOf } from "./inspect";

const PATH = "/api/v1/image/compress";

describe("compress image", () => {
  it("charges 10 credits with a key and keeps JPEG, size and dimensions", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const input = await jpegOf(photo(640, 400), 95);
    const out = await ok(PATH, { file: file(input, "photo.jpg"), quality: "70" }, withKey(acct.key));
    expect(out.credits).toBe("10");
    expect(out.credits_charged).toBe(10);
    expect(await balanceOf(acct.token)).toBe(90);
    expect(formatOf(out.bytes)).toBe("jpeg");
    expect(sizeOf(out.bytes)).toEqual([640, 400]);
    expect(out.bytes.length).toBeLessThan(input.length);
    expect(out.meta).toMatchObject({ original_size: input.length, format: "jpeg", width: 640, height: 400, original_dimensions: "640x400" });
  });

  it("charges anonymous callers 0", async () => {
    const out = await ok(PATH, { file: file(await jpegOf(photo(64, 64)), "a.jpg") });
    expect(out.credits).toBe("0");
    expect(out.credits_charged).toBe(0);
  });

  it("lower quality gives a smaller JPEG", async () => {
    const input = await jpegOf(photo(400, 300), 98);
    const high = await ok(PATH, { file: file(input, "a.jpg"), quality: "90" });
    const low = await ok(PATH, { file: file(input, "a.jpg"), quality: "20" });
    expect(low.bytes.length).toBeLessThan(high.bytes.length);
  });

  it("quantises a photo PNG to a palette and shrinks it", async () => {
    const input = await pngOf(photo(400, 300));
    const out = await ok(PATH, { file: file(input, "a.png") });
    expect(formatOf(out.bytes)).toBe("png");
    expect(sizeOf(out.bytes)).toEqual([400, 300]);
    expect(pngColorType(out.bytes)).toBe(3);
    expect(out.bytes.length).toBeLessThan(input.length / 2);
  });

  it("keeps WebP, AVIF and GIF in their own format, never larger", async () => {
    const px = photo(200, 150);
    for (const [name, input] of [
      ["a.webp", await webpOf(px, 95)],
      ["a.avif", await avifOf(px, 90)],
      ["a.gif", gifOf(px)],
    ] as const) {
      const out = await ok(PATH, { file: file(input, name), quality: "50" });
      expect(formatOf(out.bytes)).toBe(formatOf(input));
      expect(sizeOf(out.bytes)).toEqual([200, 150]);
      expect(out.bytes.length).toBeLessThanOrEqual(input.length);
    }
  });

  it("returns the original bytes when re-encoding would not be smaller", async () => {
    // One of our own outputs: re-quantising it with the same steps and optimal
    // tables again cannot shrink it. (A foreign q10 JPEG at quality 100 now
    // does shrink: its steps are kept and only its Huffman tables improve.)
    const input = (await ok(PATH, { file: file(await jpegOf(photo(300, 200), 10), "tiny.jpg"), quality: "40" })).bytes;
    const out = await ok(PATH, { file: file(input, "tiny.jpg"), quality: "100" });
    expect(out.bytes).toEqual(input);
    expect(out.meta.output_size).toBe(out.meta.original_size);
    expect(out.meta.notes?.join(" ")).toMatch(/original/);
  });

  it("keeps the EXIF orientation and reports upright dimensions", async () => {
    const input = withOrientation(await jpegOf(photo(300, 200), 95), 6);
    const out = await ok(PATH, { file: file(input, "rotated.jpg") });
    expect(sizeOf(out.bytes)).toEqual([300, 200]); // stored pixels untouched...
    const exif = jpegApp(out.bytes, 0xe1, "Exif\0\0")[0];
    expect(exif).toBeDefined();
    expect(Array.from(exif.subarray(0, 4))).toEqual([0x4d, 0x4d, 0, 0x2a]);
    expect(exif[19]).toBe(6); // ...and the orientation tag kept
    expect(out.meta).toMatchObject({ width: 200, height: 300, original_dimensions: "200x300" });
  });

  itWithCorpus("keeps the ICC profile of an XYB JPEG (its colours depend on it)", async () => {
    const input = await corpusFile("images/libvips/sample-xyb.jpg");
    const out = await ok(PATH, { file: file(input, "xyb.jpg"), quality: "60" });
    const iccIn = jpegApp(input, 0xe2, "ICC_PROFILE\0");
    const iccOut = jpegApp(out.bytes, 0xe2, "ICC_PROFILE\0");
    expect(iccOut.length).toBe(iccIn.length);
    expect(iccOut[0]).toEqual(iccIn[0]);
    expect(jpegApp(out.bytes, 0xe1, "http://ns.adobe.com/xap/1.0/")).toHaveLength(0);
  });

  itWithCorpus("returns an animated GIF unchanged and says why", async () => {
    const input = await corpusFile("images/libvips/cogs.gif");
    const out = await ok(PATH, { file: file(input, "cogs.gif") });
    expect(out.bytes).toEqual(input);
    expect(out.meta.notes?.join(" ")).toMatch(/animat/);
  });
});
