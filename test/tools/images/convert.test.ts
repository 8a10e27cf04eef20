import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { corpusFile, itWithCorpus } from "../../support/corpus";
import { fails, ok, withKey } from "./client";
import { avifOf, bmpOf, file, gifOf, jpegOf, photo, pngOf, tiffOf, webpOf } from "../../support/images/fixtures";
import { formatOf, sizeOf } from "./inspect";
import { near, pixelsOf, rgbaAt } from "../../support/images/pixels";

const PATH = "/api/v1/image/convert";
const TARGETS = [
  ["png", "png"],
  ["jpg", "jpeg"],
  ["webp", "webp"],
  ["avif", "avif"],
  ["bmp", "bmp"],
  ["tiff", "tiff"],
  ["gif", "gif"],
] as const;

async function inputs() {
  const px = photo(96, 64);
  return [
    ["in.jpg", await jpegOf(px)],
    ["in.png", await pngOf(px)],
    ["in.webp", await webpOf(px)],
    ["in.avif", await avifOf(px)],
    ["in.gif", gifOf(px)],
    ["in.bmp", bmpOf(px)],
    ["in.tif", tiffOf(px)],
  ] as const;
}

describe("convert image", () => {
  it("converts every input format to every target", async () => {
    for (const [name, bytes] of await inputs()) {
      for (const [target, format] of TARGETS) {
        const out = await ok(PATH, { file: file(bytes, name), target_format: target });
        expect(formatOf(out.bytes), `${name} -> ${target}`).toBe(format);
        expect(sizeOf(out.bytes), `${name} -> ${target}`).toEqual([96, 64]);
        expect(out.meta).toMatchObject({ format, width: 96, height: 64 });
        // A dark-ish pixel stays dark-ish: the picture survived, not just the header.
        const px = await pixelsOf(out.bytes);
        expect(near(rgbaAt(px, 2, 2), [0, 0, 128, 255], 60), `${name} -> ${target} ${rgbaAt(px, 2, 2)}`).toBe(true);
      }
    }
  });

  it("charges 10 with a key, names the output after the input", async () => {
    const acct = await accountWithKey({ credits: 30 });
    const out = await ok(PATH, { file: file(await pngOf(photo(20, 20)), "holiday.png"), target_format: "webp" }, withKey(acct.key));
    expect(out.credits).toBe("10");
    expect(out.url).toMatch(/holiday\.webp$/);
    expect(await balanceOf(acct.token)).toBe(20);
  });

  it("writes PNG losslessly", async () => {
    const px = photo(64, 48, { alpha: true });
    const out = await ok(PATH, { file: file(await pngOf(px), "a.png"), target_format: "png" });
    const back = await pixelsOf(out.bytes);
    // Fully transparent pixels may have any colour; compare the visible ones exactly.
    for (let i = 0; i < px.width * px.height; i++) {
      if (px.data[i * 4 + 3] === 0) continue;
      expect(Array.from(back.data.subarray(i * 4, i * 4 + 4))).toEqual(Array.from(px.data.subarray(i * 4, i * 4 + 4)));
    }
  });

  itWithCorpus("flattens alpha onto white for JPEG and BMP and keeps it for PNG, WebP, AVIF", async () => {
    const rgba = await corpusFile("images/libvips/trans-x.png");
    const source = await pixelsOf(rgba);
    const clear = source.data.findIndex((_, i) => i % 4 === 3 && source.data[i] === 0);
    const [x, y] = [((clear - 3) / 4) % source.width, Math.floor((clear - 3) / 4 / source.width)];
    for (const target of ["jpg", "bmp"]) {
      const px = await pixelsOf((await ok(PATH, { file: file(rgba, "t.png"), target_format: target })).bytes);
      expect(near(rgbaAt(px, x, y), [255, 255, 255, 255], 3), `${target} ${rgbaAt(px, x, y)}`).toBe(true);
    }
    for (const target of ["png", "webp", "avif", "tiff"]) {
      const px = await pixelsOf((await ok(PATH, { file: file(rgba, "t.png"), target_format: target })).bytes);
      expect(rgbaAt(px, x, y)[3], target).toBeLessThan(10);
    }
  });

  it("refuses a missing or unknown target_format and a quality outside 1..100, charging nothing", async () => {
    const acct = await accountWithKey({ credits: 40 });
    const auth = withKey(acct.key);
    const f = file(await pngOf(photo(20, 20)), "a.png");
    expect(await fails(PATH, { file: f }, 422, auth)).toBe("validation_failed");
    expect(await fails(PATH, { file: f, target_format: "heic" }, 422, auth)).toBe("validation_failed");
    for (const q of ["0", "101", "-5", "abc", "50.5"]) {
      expect(await fails(PATH, { file: f, target_format: "jpg", quality: q }, 422, auth), q).toBe("validation_failed");
    }
    expect(await balanceOf(acct.token)).toBe(40);
  });
});
