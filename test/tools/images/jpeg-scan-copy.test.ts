import { describe, expect, it } from "vitest";
import { decodeJpeg, encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { decodeTable, encodeTable, STD_DC_LUMA, withExtraCodes, type HuffmanSpec } from "../../../src/engines/images/jpeg/huffman";
import { jpegBandProbe } from "../../../src/engines/images/jpeg/probe";
import type { Pixels } from "../../../src/engines/images/types";
import { file, photo } from "../../support/images/fixtures";
import { pixelsOf } from "../../support/images/pixels";
import { withRestarts } from "../../support/images/restarts";
import { okOnRoads } from "./roads";

// A JPEG over 2 MP is read in bands, each handed to MozJPEG as a small JPEG.
// A single-scan file's band is the file's own entropy-coded bits (only the
// first MCU is coded again, or nothing at a restart marker); the rest are
// coded again from their coefficients. Either way the pixels must be exactly
// those of one whole decode, and the probe says which way each band went.

const W = 2400;
const H = 1250;

function maxDifference(a: Pixels, b: Pixels): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let max = 0;
  for (let i = 0; i < a.data.length; i++) max = Math.max(max, Math.abs(a.data[i] - b.data[i]));
  return max;
}

/** Converts to PNG over HTTP; answers how the bands went and how far the result is from MozJPEG's whole decode. */
async function toPng(jpeg: Uint8Array) {
  const before = { ...jpegBandProbe };
  const { out, taken } = await okOnRoads("/api/v1/image/convert", { file: file(jpeg, "photo.jpg"), target_format: "png" });
  expect(taken.sources).toEqual({ "jpeg-bands": 1 });
  const bands = {
    copied: jpegBandProbe.copiedBands - before.copiedBands,
    coded: jpegBandProbe.codedBands - before.codedBands,
    widened: jpegBandProbe.widenedTables - before.widenedTables,
  };
  return { bands, difference: maxDifference(await pixelsOf(out.bytes), await decodeJpeg(jpeg)) };
}

describe("JPEG bands as the file's own bits", () => {
  // MozJPEG writes 4:4:4 at this quality (8-row MCUs); the restart cases are 4:2:0 (16-row MCUs, 13 to a band).
  const baseline = encodeJpeg(photo(W, H), 92, { progressive: false });
  const baseline420 = encodeJpeg(photo(W, H), 92, { progressive: false, fixedSubsampling: true });
  // How many bands each file should copy: all, some (the rest coded again) or none; "widened": DC tables given spare codes.
  const cases: [string, () => Promise<Uint8Array>, "all" | "widened" | "some" | "none"][] = [
    // MozJPEG's optimised DC tables hold only the differences the photo needed, not a band's first DC values.
    ["copies every band of a baseline JPEG with optimised tables, giving its first DC values spare codes", () => baseline, "widened"],
    ["copies the bytes between restart markers when every MCU row restarts", async () => withRestarts(await baseline420, 1), "all"],
    // Windows of rows [12, 27) and [51, 66) start and end on a marker; the others do not.
    ["codes again the bands that do not start and end on a restart marker (every 3 rows)", async () => withRestarts(await baseline420, 3), "some"],
    ["codes again every band of a progressive JPEG", () => encodeJpeg(photo(W, H), 92, { progressive: true }), "none"],
  ];
  for (const [name, jpeg, copies] of cases) {
    it(`${name}, pixels exact`, async () => {
      const { bands, difference } = await toPng(await jpeg());
      expect(bands.copied + bands.coded).toBeGreaterThanOrEqual(6);
      if (copies === "all" || copies === "widened") expect(bands.coded).toBe(0);
      if (copies === "none") expect(bands.copied).toBe(0);
      if (copies === "some") expect(Math.min(bands.copied, bands.coded)).toBeGreaterThan(0);
      if (copies === "widened") expect(bands.widened).toBeGreaterThan(0);
      expect(difference).toBe(0);
    }, 60_000);
  }
});

describe("JPEG bands of a damaged restart sequence", () => {
  it("codes again the bands after a lost marker, as the reader resynchronised, instead of copying them", async () => {
    const jpeg = withRestarts(await encodeJpeg(photo(W, H), 92, { progressive: false, fixedSubsampling: true }), 1);
    // Drop the fifth RSTn: the reader finds the next one and runs an interval behind from there.
    let found = 0;
    let at = -1;
    for (let i = jpeg.indexOf(0xff, 700); i >= 0 && found < 5; i = jpeg.indexOf(0xff, i + 1)) {
      if (jpeg[i + 1] >= 0xd0 && jpeg[i + 1] <= 0xd7 && ++found === 5) at = i;
    }
    expect(at).toBeGreaterThan(0);
    const damaged = new Uint8Array([...jpeg.subarray(0, at), ...jpeg.subarray(at + 2)]);
    const before = { ...jpegBandProbe };
    const { out } = await okOnRoads("/api/v1/image/convert", { file: file(damaged, "photo.jpg"), target_format: "png" });
    expect(jpegBandProbe.copiedBands - before.copiedBands).toBe(0);
    expect(jpegBandProbe.codedBands - before.codedBands).toBeGreaterThanOrEqual(6);
    const px = await pixelsOf(out.bytes);
    expect([px.width, px.height]).toEqual([W, H]);
  }, 60_000);
});

describe("withExtraCodes", () => {
  /** Every code of `spec`, by symbol, as (length, code). */
  const codes = (spec: HuffmanSpec) => {
    const t = encodeTable(spec);
    return [...spec.symbols].map((s) => [s, t.size[s], t.code[s]]);
  };

  it("adds 16-bit codes after the last one and leaves every existing code as it was", () => {
    // An optimised-looking DC table: categories 0 to 4 only.
    const small: HuffmanSpec = { counts: Uint8Array.of(0, 3, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), symbols: Uint8Array.of(0, 1, 2, 3, 4) };
    const wider = withExtraCodes(small, [9, 11]);
    expect(wider).not.toBeNull();
    const added = codes(wider as HuffmanSpec);
    expect(added.slice(0, 5)).toEqual(codes(small));
    expect(added.slice(5).map(([s, len]) => [s, len])).toEqual([
      [9, 16],
      [11, 16],
    ]);
    // Decodable: the new codes are neither prefixes of old ones nor all ones.
    const d = decodeTable(wider as HuffmanSpec);
    for (const [, len, code] of added) expect(code).not.toBe((1 << len) - 1);
    expect(d.maxcode[16]).toBeLessThan(0xffff);
  });

  it("refuses a table with no code space left", () => {
    // Two 1-bit codes use the whole space.
    const full: HuffmanSpec = { counts: Uint8Array.of(2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), symbols: Uint8Array.of(0, 1) };
    expect(withExtraCodes(full, [5])).toBeNull();
    expect(withExtraCodes(STD_DC_LUMA, [])).not.toBeNull();
  });
});
