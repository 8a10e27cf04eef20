import { decodeJpeg } from "../codecs/jpeg";
import { concat } from "../util/bytes";
import type { Pixels } from "../types";
import type { CoefBand } from "./band";
import type { FrameGeometry } from "./frame";
import { BitWriter, category } from "./bit-io";
import { damagedJpeg } from "./damaged";
import { encodeBlock } from "./blocks";
import { encodeTable, withExtraCodes, STD_AC_CHROMA, STD_AC_LUMA, STD_DC_CHROMA, STD_DC_LUMA } from "./huffman";
import { jpegBandProbe } from "./probe";
import type { SequentialReader } from "./sequential";
import { EOI_BYTES, jpegHeader, ScanEncoder, type HuffmanSet } from "./write";

// Turns a band of coefficients into pixels: the band is written as a small
// standalone JPEG (standard tables, baseline) and decoded by MozJPEG, so the
// IDCT, upsampling and colour conversion are libjpeg's own. A band of a
// single-scan file keeps the file's own tables and bits: only its first MCU
// is coded again, or nothing when it starts a restart interval
// (copiedBandPixels).

export const STANDARD_TABLES: HuffmanSet = { dc: [STD_DC_LUMA, STD_DC_CHROMA], ac: [STD_AC_LUMA, STD_AC_CHROMA] };

/** Joins consecutive bands (copies). */
export function joinBands(g: FrameGeometry, bands: CoefBand[]): CoefBand {
  if (bands.length === 1) return bands[0];
  return {
    firstMcuRow: bands[0].firstMcuRow,
    mcuRows: bands.reduce((n, b) => n + b.mcuRows, 0),
    planes: g.components
      .map((_, i) => concat(bands.map((b) => new Uint8Array(b.planes[i].buffer, b.planes[i].byteOffset, b.planes[i].byteLength))))
      .map((u8) => new Int16Array(u8.buffer, u8.byteOffset, u8.byteLength / 2)),
  };
}

/**
 * Pixels of MCU rows [band.firstMcuRow, +mcuRows) of the image described by
 * `g`, given as one band; `extra` segments (Adobe APP14) keep libjpeg's
 * colour-space choice.
 */
export async function bandPixels(g: FrameGeometry, dqt: Uint8Array[], band: CoefBand, extra: Uint8Array[]): Promise<Pixels> {
  const top = band.firstMcuRow * g.mcuH;
  const height = Math.min(band.mcuRows * g.mcuH, g.height - top);
  const enc = new ScanEncoder(g, STANDARD_TABLES);
  try {
    enc.encode(band);
  } catch (err) {
    // Only damaged data decodes to a value the standard tables cannot code (a DC past 8-bit range).
    throw damagedJpeg(err);
  }
  jpegBandProbe.codedBands++;
  const jpeg = concat([jpegHeader(g, dqt, height, STANDARD_TABLES, extra), enc.finish(), EOI_BYTES]);
  return decodeJpeg(jpeg);
}

/**
 * Pixels of MCU rows [from, to) of a file read by `reader` (rows read
 * already; `first` holds row `from`'s coefficients): the file's own tables
 * and bits, but for the first MCU, coded again because a decoder starting
 * there predicts its DC values from 0. An optimised table may lack the
 * magnitude such a DC value needs (the file never used it): the band's copy
 * of the table gets it as a spare 16-bit code. Null when that or the first
 * MCU cannot be coded with the file's tables: the caller then codes the band
 * with bandPixels.
 */
export async function copiedBandPixels(reader: SequentialReader, first: CoefBand, from: number, to: number, extra: Uint8Array[]): Promise<Pixels | null> {
  const { g } = reader;
  const top = from * g.mcuH;
  const height = Math.min((to - from) * g.mcuH, g.height - top);
  if (reader.restartInterval) {
    // Restart intervals start with DC predictions reset: the bytes serve as they are, the header says where they restart.
    const scan = reader.copyIntervals(from, to);
    if (!scan) return null;
    const dri = Uint8Array.of(0xff, 0xdd, 0, 4, reader.restartInterval >> 8, reader.restartInterval & 0xff);
    jpegBandProbe.copiedBands++;
    return decodeJpeg(concat([jpegHeader(g, reader.dqt, height, reader.tables, [...extra, dri]), scan, EOI_BYTES]));
  }
  const row = from - first.firstMcuRow;
  // The first MCU's blocks in MCU order, with the DC difference each is coded with.
  const blocks: { ci: number; at: number; diff: number }[] = [];
  g.components.forEach((c, ci) => {
    let pred = 0;
    for (let v = 0; v < c.v; v++) {
      for (let h = 0; h < c.h; h++) {
        const at = ((row * c.v + v) * c.bw + h) * 64;
        blocks.push({ ci, at, diff: first.planes[ci][at] - pred });
        pred = first.planes[ci][at];
      }
    }
  });
  const { td, ta } = reader.tables;
  const dcSpec = [...reader.tables.dc];
  for (const slot of new Set(td)) {
    const spec = dcSpec[slot];
    if (!spec) return null;
    const have = new Set(spec.symbols);
    const missing = [...new Set(blocks.filter((b) => td[b.ci] === slot).map((b) => category(b.diff)))].filter((s) => !have.has(s));
    if (missing.length === 0) continue;
    // Past 11 a DC value is out of 8-bit range (damaged data): the coded road answers for it as before.
    if (missing.some((s) => s > 11)) return null;
    const wider = withExtraCodes(spec, missing);
    if (!wider) return null;
    dcSpec[slot] = wider;
    jpegBandProbe.widenedTables++;
  }
  const w = new BitWriter(1 << 18);
  const dc = dcSpec.map((spec) => spec && encodeTable(spec));
  const ac = reader.tables.ac.map((spec) => spec && encodeTable(spec));
  for (const b of blocks) {
    const dcTable = dc[td[b.ci]];
    const acTable = ac[ta[b.ci]];
    if (!dcTable || !acTable) return null;
    try {
      encodeBlock(w, dcTable, acTable, first.planes[b.ci], b.at, first.planes[b.ci][b.at] - b.diff);
    } catch {
      // A symbol the file's AC table has no code for (a block ended other than by EOB there).
      return null;
    }
  }
  reader.copyScan(from, to, w);
  w.flush();
  jpegBandProbe.copiedBands++;
  return decodeJpeg(concat([jpegHeader(g, reader.dqt, height, { ...reader.tables, dc: dcSpec }, extra), w.take(), EOI_BYTES]));
}
