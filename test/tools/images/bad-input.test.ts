import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { STD_AC_CHROMA, STD_AC_LUMA, STD_DC_CHROMA, STD_DC_LUMA } from "../../../src/engines/images/jpeg/huffman";
import { parseJpeg } from "../../../src/engines/images/jpeg/markers";
import { EOI_BYTES, jpegHeader, ScanEncoder, type HuffmanSet } from "../../../src/engines/images/jpeg/write";
import { concat } from "../../../src/engines/images/util/bytes";
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

/**
 * A baseline 4:4:4 JPEG over 2 MP (so it is read in bands) whose codes are
 * all valid but whose luma DC climbs past anything 8-bit samples reach
 * (2000, then 3000 for every block): what damaged entropy-coded data often
 * decodes to. A band that starts mid-picture must code its first DC whole,
 * which no baseline table can.
 */
function dcOverflowJpeg(): Uint8Array {
  const width = 1800;
  const height = 1200;
  const mcusX = width / 8;
  const mcusY = height / 8;
  const comps = [1, 2, 3].map((id, i) => ({ id, h: 1, v: 1, tq: i === 0 ? 0 : 1, bw: mcusX, bh: mcusY, realBw: mcusX, realBh: mcusY }));
  const g = { width, height, hmax: 1, vmax: 1, mcusX, mcusY, mcuH: 8, components: comps };
  const dqt = [0, 1].map((id) => Uint8Array.from({ length: 65 }, (_, k) => (k === 0 ? id : 1)));
  const planes = comps.map((_, ci) => {
    const p = new Int16Array(mcusX * mcusY * 64);
    if (ci === 0) for (let i = 0; i < p.length; i += 64) p[i] = i === 0 ? 2000 : 3000;
    return p;
  });
  const tables: HuffmanSet = { dc: [STD_DC_LUMA, STD_DC_CHROMA], ac: [STD_AC_LUMA, STD_AC_CHROMA] };
  const enc = new ScanEncoder(g, tables);
  enc.encode({ firstMcuRow: 0, mcuRows: mcusY, planes });
  return concat([jpegHeader(g, dqt, height, tables), enc.finish(), EOI_BYTES]);
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

  it("answers 422 for a JPEG whose coded data is damaged where compress stays in the DCT domain, baseline and progressive", async () => {
    const acct = await accountWithKey({ credits: 100 });
    for (const progressive of [false, true]) {
      // 4:2:0, so compress re-quantises it instead of decoding pixels (which libjpeg would patch over).
      const jpeg = await encodeJpeg(photo(320, 240), 90, { fixedSubsampling: true, progressive });
      const damaged = jpeg.slice();
      // Sixty-four stuffed 0xFF bytes in the first scan: a run of 1-bits is no Huffman code.
      const start = parseJpeg(jpeg).scans[0].start + 40;
      for (let i = 0; i < 128; i += 2) damaged.set([0xff, 0x00], start + i);
      const code = await fails("/api/v1/image/compress", { file: file(damaged, "damaged.jpg"), quality: "60" }, 422, withKey(acct.key));
      expect(code, progressive ? "progressive" : "baseline").toBe("invalid_image");
    }
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("answers 422 when a big JPEG's values cannot be coded again for its bands, where a 500 used to escape", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const upload = file(dcOverflowJpeg(), "overflow.jpg");
    expect(await fails("/api/v1/image/convert", { file: upload, target_format: "png" }, 422, withKey(acct.key))).toBe("invalid_image");
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
