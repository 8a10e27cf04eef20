import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { fails, withKey } from "./client";
import { file, gifOf, jpegOf, photo, pngBomb, pngOf, webpOf } from "../../support/images/fixtures";

// Every bad upload is a 422 problem (never a 500) and costs nothing.

const TOOLS = [
  ["/api/v1/image/compress", {}],
  ["/api/v1/image/resize", { width: "50" }],
  ["/api/v1/image/convert", { target_format: "png" }],
] as const;

function jpegSofBomb(width: number, height: number): Uint8Array {
  // SOI, then a baseline SOF0 claiming the size; nothing else is needed to be refused.
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xc0,
    0,
    17,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
    0xff,
    0xd9,
  ]);
}

function gifBomb(): Uint8Array {
  // A 65535x65535 logical screen with a 1x1 image.
  return new Uint8Array([
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0xff, 0xff, 0xff, 0xff, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4c, 0x01, 0, 0x3b,
  ]);
}

async function badInputs(): Promise<[string, File, string][]> {
  const jpeg = await jpegOf(photo(200, 150));
  const png = await pngOf(photo(200, 150));
  const webp = await webpOf(photo(200, 150));
  const gif = gifOf(photo(60, 40));
  return [
    ["text file named .png", file(new TextEncoder().encode("hello, I am not an image"), "fake.png"), "invalid_image"],
    ["PDF", file(new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"), "doc.jpg"), "invalid_image"],
    ["zero bytes", file(new Uint8Array(0), "empty.jpg"), "validation_failed"],
    ["truncated JPEG", file(jpeg.subarray(0, Math.floor(jpeg.length * 0.6)), "cut.jpg"), "invalid_image"],
    ["JPEG header only", file(jpeg.subarray(0, 200), "head.jpg"), "invalid_image"],
    ["truncated PNG", file(png.subarray(0, Math.floor(png.length * 0.6)), "cut.png"), "invalid_image"],
    ["truncated WebP", file(webp.subarray(0, Math.floor(webp.length * 0.5)), "cut.webp"), "invalid_image"],
    ["truncated GIF", file(gif.subarray(0, Math.floor(gif.length * 0.5)), "cut.gif"), "invalid_image"],
    ["PNG bomb 20000x20000", file(pngBomb(20000, 20000), "bomb.png"), "image_too_large"],
    ["JPEG bomb 65000x65000", file(jpegSofBomb(65000, 65000), "bomb.jpg"), "image_too_large"],
    ["GIF bomb 65535x65535", file(gifBomb(), "bomb.gif"), "image_too_large"],
  ];
}

describe("bad image input", () => {
  it("answers 422 with a stable code for every tool and charges nothing", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const auth = withKey(acct.key);
    for (const [label, upload, code] of await badInputs()) {
      for (const [path, fields] of TOOLS) {
        expect(await fails(path, { file: upload, ...fields }, 422, auth), `${label} on ${path}`).toBe(code);
      }
    }
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("refuses quality outside 1..100 on every tool", async () => {
    const upload = file(await pngOf(photo(20, 20)), "a.png");
    for (const [path, fields] of TOOLS) {
      for (const q of ["0", "101"]) expect(await fails(path, { file: upload, ...fields, quality: q }, 422), `${path} q=${q}`).toBe("validation_failed");
    }
  });

  it("refuses a missing file part", async () => {
    for (const [path, fields] of TOOLS) expect(await fails(path, { ...fields }, 422), path).toBe("validation_failed");
  });
});
