import { describe, expect, it } from "vitest";
import { ascii, u16be } from "../util/bytes";
import { encodeAv1Stills, qualityToQuantizer } from "../codecs/av1-still";
import { decodeAvif } from "../codecs/avif";
import { encodeAvifItems, encodeAvifStill } from "./still";
import { ipmaEntries, readBoxes, readHeifMeta } from "../formats/isobmff";
import type { Pixels } from "../types";
import { photo } from "../../../../test/support/images/fixtures";

// Single-picture AVIF: our AV1 still encoder (libaom in WASM) plus our
// container. Read back with libavif (jSquash's decoder) and box by box with
// isobmff.ts; the property bytes are compared with what libavif itself wrote
// for the same kind of picture (recorded from jSquash's libavif 1.0 encoder).

const LIBAVIF_COLR = "00000013636f6c726e636c7800020002000680"; // nclx 2/2/6, full range
const LIBAVIF_PIXI_RGB = "00000010706978690000000003080808";
const LIBAVIF_PIXI_ALPHA = "0000000e70697869000000000108";
const LIBAVIF_AUXC = "00000038617578430000000075726e3a6d7065673a6d706567423a636963703a73797374656d733a617578696c696172793a616c70686100";

const hex = (b: Uint8Array) => Array.from(b, (v) => v.toString(16).padStart(2, "0")).join("");

/** Items (id, type, name), references, and each item's property boxes (hex, "!" when essential). */
function container(b: Uint8Array) {
  const m = readHeifMeta(b);
  if (!m) throw new Error("no meta");
  const find = (t: string) => m.boxes.find((x) => x.type === t);
  const iinf = find("iinf")!;
  const items = readBoxes(b, iinf.body + 2, iinf.end).map((infe) => ({
    id: u16be(b, infe.body),
    type: ascii(b, infe.body + 4, 4),
    name: ascii(b, infe.body + 8, infe.end - infe.body - 9),
  }));
  const refs: { type: string; from: number; to: number }[] = [];
  const iref = find("iref");
  if (iref) for (const r of readBoxes(b, iref.body, iref.end)) refs.push({ type: r.type, from: u16be(b, r.body), to: u16be(b, r.body + 4) });
  const boxes = readBoxes(b, m.ipco.body, m.ipco.end);
  const props = new Map<number, string[]>();
  for (const [id, assoc] of ipmaEntries(b, m.ipma)) {
    props.set(
      id,
      assoc.map(([index, essential]) => {
        const p = boxes[index - 1];
        return `${p.type}${essential ? "!" : ""}:${hex(b.subarray(p.start, p.end))}`;
      }),
    );
  }
  const brands: string[] = [];
  const ftyp = readBoxes(b, 0, b.length)[0];
  for (let at = ftyp.body + 8; at < ftyp.end; at += 4) brands.push(ascii(b, at, 4));
  return { primary: m.primary, items, refs, props, brands };
}

function psnr(a: Pixels, b: Pixels, channels = [0, 1, 2]): number {
  let se = 0,
    n = 0;
  for (let i = 0; i < a.width * a.height; i++) {
    for (const c of channels) {
      const d = a.data[i * 4 + c] - b.data[i * 4 + c];
      se += d * d;
      n++;
    }
  }
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255 * n) / se);
}

describe("AVIF still writer", () => {
  it("maps quality to the quantizer as libavif does (85 -> 9, 100 -> 0 lossless coding, 0 -> 63)", () => {
    expect([0, 25, 50, 75, 85, 90, 100].map(qualityToQuantizer)).toEqual([63, 47, 32, 16, 9, 6, 0]);
  });

  it("writes one colour item with libavif's properties, and libavif decodes it close to the source", async () => {
    const input = photo(640, 480);
    const out = await encodeAvifStill(input, 85);
    const c = container(out);
    expect(c.brands).toEqual(["avif", "mif1", "miaf", "MA1B"]);
    expect(c.items).toEqual([{ id: 1, type: "av01", name: "Color" }]);
    expect(c.primary).toBe(1);
    expect(c.refs).toEqual([]);
    const props = c.props.get(1)!;
    expect(props.map((p) => p.split(":")[0])).toEqual(["ispe", "pixi", "av1C!", "colr"]);
    expect(props[0]).toBe(`ispe:00000014697370650000000000000${(640).toString(16)}000001e0`);
    expect(props[1]).toBe(`pixi:${LIBAVIF_PIXI_RGB}`);
    expect(props[3]).toBe(`colr:${LIBAVIF_COLR}`);
    // av1C: marker+version, profile 0 with a level, tier 0 / 8-bit / 4:2:0 (0x0c), no delay.
    expect(props[2]).toMatch(/^av1C!:0000000c6176314381[0-1][0-9a-f]0c00$/);

    const decoded = await decodeAvif(out);
    expect([decoded.width, decoded.height]).toEqual([640, 480]);
    // The fixture has +-4 grain everywhere; a wrong matrix or range would fall below 25 dB.
    expect(psnr(input, decoded)).toBeGreaterThan(32);
  });

  it("adds an alpha item ('Alpha', auxl to the colour, monochrome av1C, auxC) only when a pixel is not opaque", async () => {
    const input = photo(320, 200, { alpha: true });
    const out = await encodeAvifStill(input, 85);
    const c = container(out);
    expect(c.items).toEqual([
      { id: 1, type: "av01", name: "Color" },
      { id: 2, type: "av01", name: "Alpha" },
    ]);
    expect(c.refs).toEqual([{ type: "auxl", from: 2, to: 1 }]);
    const alpha = c.props.get(2)!;
    expect(alpha.map((p) => p.split(":")[0])).toEqual(["ispe", "pixi", "av1C!", "auxC"]);
    expect(alpha[1]).toBe(`pixi:${LIBAVIF_PIXI_ALPHA}`);
    expect(alpha[2]).toMatch(/^av1C!:0000000c6176314381[0-1][0-9a-f]1c00$/); // monochrome
    expect(alpha[3]).toBe(`auxC:${LIBAVIF_AUXC}`);
    const decoded = await decodeAvif(out);
    expect(psnr(input, decoded, [3])).toBeGreaterThan(40);
    expect(decoded.data[(100 * 320 + 10) * 4 + 3]).toBeLessThan(4);
    expect(decoded.data[(100 * 320 + 300) * 4 + 3]).toBe(255);

    // Opaque pixels: no alpha item, unless asked for (grid tiles must agree).
    const opaque = photo(320, 200);
    expect(container(await encodeAvifStill(opaque, 85)).items).toHaveLength(1);
    const forced = await encodeAvifItems(opaque, 85, { alpha: "always" });
    expect(forced.alpha).toBeDefined();
    expect((await encodeAvifItems(input, 85, { alpha: "never" })).alpha).toBeUndefined();
  });

  it("writes 4:4:4 as AV1 profile 1 with the Advanced brand, odd sizes included", async () => {
    const input = photo(333, 101);
    const out = await encodeAvifStill(input, 85, { chroma: "444" });
    const c = container(out);
    expect(c.brands).toEqual(["avif", "mif1", "miaf", "MA1A"]);
    expect(c.props.get(1)![2]).toMatch(/^av1C!:0000000c61763143812[0-9a-f]0000$/);
    const decoded = await decodeAvif(out);
    expect([decoded.width, decoded.height]).toEqual([333, 101]);
    expect(psnr(input, decoded)).toBeGreaterThan(36);
  });

  it("puts the level of the picture size in av1C, the same as the payload's sequence header", async () => {
    // By luma picture size (AV1 annex A.3): 64x64 fits level 2.0 (index 0), 1000x1000
    // level 3.1 (index 5, up to 1,065,024 samples), 1000x1100 needs 4.0 (index 8).
    for (const [w, h, level] of [
      [64, 64, 0],
      [1000, 1000, 5],
      [1000, 1100, 8],
    ] as const) {
      const items = await encodeAvifItems(photo(w, h), 60);
      const av1C = items.color.props.find((p) => p.type === "av1C")!.box;
      expect(av1C[9] & 31).toBe(level);
      // The payload starts with a temporal delimiter, then the sequence header (profile 0, still, reduced).
      const tu = items.color.payload;
      expect(hex(tu.subarray(0, 3))).toBe("12000a");
      expect(tu[4] >> 3).toBe(0b00011);
    }
  }, 60_000);

  it("spends fewer bytes at lower quality, and codes quality 100 losslessly in 4:4:4", async () => {
    const input = photo(256, 256);
    const [q30, q85] = await Promise.all([encodeAvifStill(input, 30), encodeAvifStill(input, 85)]);
    expect(q30.length).toBeLessThan(q85.length * 0.6);
    const lossless = await decodeAvif(await encodeAvifStill(input, 100, { chroma: "444" }));
    // Lossless coding of YUV: only the RGB -> YUV rounding remains.
    expect(psnr(input, lossless)).toBeGreaterThan(45);
  });

  it("searches a grid tile as its whole picture when told the picture's shorter side", async () => {
    const tile = photo(286, 274);
    const [own] = await encodeAv1Stills(tile, ["color-420"], 9, 6);
    const [sameSide] = await encodeAv1Stills(tile, ["color-420"], 9, 6, { pictureSide: 274 });
    const [ofPhoto] = await encodeAv1Stills(tile, ["color-420"], 9, 6, { pictureSide: 3000 });
    // The tile's own shorter side is what aom uses when none is given...
    expect(hex(sameSide)).toBe(hex(own));
    // ...and a 12 MP photo's side selects other speed features: another search, as good a picture.
    expect(hex(ofPhoto)).not.toBe(hex(own));
    expect(Math.abs(ofPhoto.length / own.length - 1)).toBeLessThan(0.05);
    const [a, b] = await Promise.all([decodeAvif(await encodeAvifStill(tile, 85)), decodeAvif(await encodeAvifStill(tile, 85, { pictureSide: 3000 }))]);
    expect(Math.abs(psnr(tile, a) - psnr(tile, b))).toBeLessThan(0.5);
  });

  it("refuses a size aom cannot encode with a message, not a crash, and stays usable", async () => {
    const px: Pixels = { data: new Uint8Array(4), width: 1, height: 1 };
    await expect(encodeAv1Stills({ ...px, width: 0 }, ["color-420"], 9, 6)).rejects.toThrow(/AV1 encode failed: invalid arguments/);
    const [tiny] = await encodeAv1Stills(px, ["color-420"], 9, 6);
    expect(tiny.length).toBeGreaterThan(10);
  });
});
