import { describe, expect, it } from "vitest";
import { decodeJpeg, encodeJpeg } from "../../../src/engines/images/codecs/jpeg";
import { STD_AC_CHROMA, STD_AC_LUMA, STD_DC_CHROMA, STD_DC_LUMA } from "../../../src/engines/images/jpeg/huffman";
import { parseJpeg } from "../../../src/engines/images/jpeg/markers";
import { mozjpegTables, readQuantTables } from "../../../src/engines/images/jpeg/quant-tables";
import { ProgressiveReader } from "../../../src/engines/images/jpeg/progressive";
import { canRequantize, requantizeJpeg, requantizeProbe } from "../../../src/engines/images/jpeg/requantize";
import { EOI_BYTES, jpegHeader, ScanEncoder, type HuffmanSet } from "../../../src/engines/images/jpeg/write";
import { decodeLargeJpeg } from "../../../src/engines/images/memory/streaming";
import type { Pixels } from "../../../src/engines/images/types";
import { ok } from "./client";
import { cmykJpeg, file, jpegOf, photo } from "../../support/images/fixtures";
import { formatOf, sizeOf } from "./inspect";
import { pixelsOf } from "../../support/images/pixels";
import { withRestarts } from "../../support/images/restarts";

// JPEG compress re-quantises coefficients (no pixel round trip) when the
// layout allows; progressive files are read band by band, every scan resumed
// where it stopped.

const PATH = "/api/v1/image/compress";

function meanAbsDiff(a: Pixels, b: Pixels): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) for (let c = 0; c < 3; c++) sum += Math.abs(a.data[i + c] - b.data[i + c]);
  return sum / ((a.data.length / 4) * 3);
}

/** Steps of the frame's components, in component order. */
function componentSteps(jpeg: Uint8Array): Uint16Array[] {
  const s = parseJpeg(jpeg);
  const tables = readQuantTables(s);
  return (s.frame?.components ?? []).map((c) => tables.get(c.tq) as Uint16Array);
}

/** A flat-colour YCbCr JPEG at 4:4:4 written by hand (MozJPEG here always writes 4:2:0). */
function jpeg444(width: number, height: number): Uint8Array {
  const mcusX = Math.ceil(width / 8),
    mcusY = Math.ceil(height / 8);
  const comps = [1, 2, 3].map((id, i) => ({ id, h: 1, v: 1, tq: i === 0 ? 0 : 1, bw: mcusX, bh: mcusY, realBw: mcusX, realBh: mcusY }));
  const g = { width, height, hmax: 1, vmax: 1, mcusX, mcusY, mcuH: 8, components: comps };
  const dqt = [0, 1].map((id) => {
    const q = new Uint8Array(65).fill(4);
    q[0] = id;
    return q;
  });
  // Y 150, Cb 100, Cr 180: an orange-brown, DC only (level shift 128, DC = 8 * mean / step).
  const dc = [150, 100, 180].map((v) => ((v - 128) * 8) / 4);
  const planes = comps.map((_, ci) => {
    const p = new Int16Array(mcusX * mcusY * 64);
    for (let i = 0; i < p.length; i += 64) p[i] = dc[ci];
    return p;
  });
  const tables: HuffmanSet = { dc: [STD_DC_LUMA, STD_DC_CHROMA], ac: [STD_AC_LUMA, STD_AC_CHROMA] };
  const enc = new ScanEncoder(g, tables);
  enc.encode({ firstMcuRow: 0, mcuRows: mcusY, planes });
  const parts = [jpegHeader(g, dqt, height, tables), enc.finish(), EOI_BYTES];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

describe("JPEG compress in the DCT domain", () => {
  it("writes MozJPEG's steps at the quality, keeping the picture", async () => {
    // High quality at 4:2:0 (MozJPEG would pick 4:4:4 at 95 on its own).
    const input = await encodeJpeg(photo(640, 400), 95, { fixedSubsampling: true });
    const out = await ok(PATH, { file: file(input, "a.jpg"), quality: "70" });
    expect(formatOf(out.bytes)).toBe("jpeg");
    expect(parseJpeg(out.bytes).frame?.marker).toBe(0xc0);
    const want = await mozjpegTables(70);
    const inSteps = componentSteps(input);
    const outSteps = componentSteps(out.bytes);
    outSteps.forEach((q, ci) => {
      const target = ci === 0 ? want.luma : want.chroma;
      for (let k = 0; k < 64; k++) expect(q[k], `component ${ci}, coefficient ${k}`).toBe(Math.max(target[k], inSteps[ci][k]));
    });
    expect(meanAbsDiff(await pixelsOf(input), await pixelsOf(out.bytes))).toBeLessThan(3);
    expect(out.bytes.length).toBeLessThan(input.length / 2);
  });

  it("keeps the input's steps where they are coarser than the quality asks", async () => {
    const input = await jpegOf(photo(320, 200), 20);
    const out = await ok(PATH, { file: file(input, "a.jpg"), quality: "90" });
    const inSteps = componentSteps(input);
    const fine = await mozjpegTables(90);
    expect(inSteps[0].some((v, k) => v > fine.luma[k])).toBe(true);
    const outSteps = componentSteps(out.bytes);
    for (let k = 0; k < 64; k++) expect(outSteps[0][k]).toBeGreaterThanOrEqual(inSteps[0][k]);
  });

  it("takes chroma no finer than MozJPEG would write, leaves CMYK and finer chroma to the pixel path", async () => {
    const at420 = parseJpeg(await jpegOf(photo(64, 64), 70));
    const at422 = parseJpeg(await jpegOf(photo(64, 64), 85));
    const at444 = parseJpeg(jpeg444(64, 64));
    expect(at422.frame?.components[0]).toMatchObject({ h: 2, v: 1 });
    expect(await canRequantize(at420, 70)).toBe(true);
    expect(await canRequantize(at420, 95)).toBe(true);
    expect(await canRequantize(at422, 85)).toBe(true);
    expect(await canRequantize(at422, 70)).toBe(false);
    expect(await canRequantize(at444, 95)).toBe(true);
    expect(await canRequantize(at444, 70)).toBe(false);
    expect(await canRequantize(parseJpeg(cmykJpeg()), 95)).toBe(false);
  });

  it("writes its second pass from the first pass's symbol log, the same file as decoding the input again", async () => {
    // Sequential (logged straight from the scan, with and without restart
    // markers) and progressive (logged from bands), each over several bands.
    const sequential = await encodeJpeg(photo(1200, 900), 92, { fixedSubsampling: true, progressive: false });
    for (const [name, input] of [
      ["sequential", sequential],
      ["sequential with restarts", withRestarts(sequential, 3)],
      ["progressive", await encodeJpeg(photo(1200, 900), 85, { fixedSubsampling: true, progressive: true })],
    ] as const) {
      const s = parseJpeg(input);
      expect(await canRequantize(s, 60), name).toBe(true);
      const before = { ...requantizeProbe };
      const out = await ok(PATH, { file: file(input, "a.jpg"), quality: "60" });
      expect(requantizeProbe.fromLog, name).toBe(before.fromLog + 1);
      expect(requantizeProbe.decodedAgain, name).toBe(before.decodedAgain);
      // A log capped below what the picture needs: dropped, the file decoded again.
      const again = await requantizeJpeg(input, s, 60, {}, 64 * 1024, 4096);
      expect(requantizeProbe.decodedAgain, name).toBe(before.decodedAgain + 1);
      expect(Buffer.from(again).equals(Buffer.from(out.bytes)), `${name}: the same bytes either way`).toBe(true);
      expect(out.bytes.length, name).toBeLessThan(input.length);
    }
  });

  it("compresses a 3 MP 4:4:4 JPEG through the MozJPEG band path", async () => {
    const input = jpeg444(2400, 1250);
    // At quality 80 MozJPEG writes 4:2:0, so 4:4:4 cannot be re-quantised.
    const out = await ok(PATH, { file: file(input, "big444.jpg"), quality: "80" });
    expect(sizeOf(out.bytes)).toEqual([2400, 1250]);
    // Written by the band writer: 4:2:0, whatever the input's sampling.
    expect(parseJpeg(out.bytes).frame?.components.map((c) => `${c.h}x${c.v}`)).toEqual(["2x2", "1x1", "1x1"]);
    const before = await pixelsOf(input),
      after = await pixelsOf(out.bytes);
    expect(meanAbsDiff(before, after)).toBeLessThan(2);
  });
});

describe("progressive JPEGs read band by band", () => {
  it("give exactly MozJPEG's whole-image pixels", async () => {
    const bytes = await encodeJpeg(photo(2400, 1250), 90, { progressive: true });
    expect(parseJpeg(bytes).scans.length).toBeGreaterThan(1);
    const whole = await decodeJpeg(bytes);
    const banded = await decodeLargeJpeg(bytes);
    expect([banded.width, banded.height]).toEqual([2400, 1250]);
    let differing = 0;
    for (let i = 0; i < whole.data.length; i++) if (whole.data[i] !== banded.data[i]) differing++;
    expect(differing).toBe(0);
  });

  it("hold one band of coefficients at a time, each in its own buffer", async () => {
    const bytes = await encodeJpeg(photo(1200, 800), 90, { progressive: true });
    const reader = new ProgressiveReader(bytes, parseJpeg(bytes));
    let rows = 0;
    while (reader.row < reader.g.mcusY) {
      const band = reader.next(10);
      band.planes.forEach((p, ci) => {
        const c = reader.g.components[ci];
        expect(p.length).toBe(band.mcuRows * c.v * c.bw * 64);
        // Not a view into whole-image planes: freed as soon as the band is done with.
        expect(p.buffer.byteLength).toBe(p.byteLength);
      });
      rows += band.mcuRows;
    }
    expect(rows).toBe(reader.g.mcusY);
  });
});
