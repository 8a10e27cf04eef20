import { decodeJpeg } from "../codecs/jpeg";
import { concat } from "../util/bytes";
import type { Pixels } from "../types";
import type { CoefBand } from "./band";
import type { FrameGeometry } from "./frame";
import { STD_AC_CHROMA, STD_AC_LUMA, STD_DC_CHROMA, STD_DC_LUMA } from "./huffman";
import { EOI_BYTES, jpegHeader, ScanEncoder, type HuffmanSet } from "./write";

// Turns a band of coefficients into pixels: the band is written as a small
// standalone JPEG (standard tables, baseline) and decoded by MozJPEG, so the
// IDCT, upsampling and colour conversion are libjpeg's own.

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
  enc.encode(band);
  const jpeg = concat([jpegHeader(g, dqt, height, STANDARD_TABLES, extra), enc.finish(), EOI_BYTES]);
  return decodeJpeg(jpeg);
}
