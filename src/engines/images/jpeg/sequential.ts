import { BitReader } from "./bit-io";
import { decodeBlock } from "./blocks";
import { emptyBand, forEachBlockInMcuOrder, type CoefBand } from "./band";
import { geometry, parseScanHeader, readTables, type FrameGeometry } from "./frame";
import type { DecodeTable } from "./huffman";
import { isProgressive, type JpegStructure } from "./markers";

/** Sequential (baseline/extended Huffman) files whose single scan carries every component. */
export function isStreamable(s: JpegStructure): boolean {
  return !!s.frame && !isProgressive(s.frame.marker) && s.scans.length === 1 && s.scans[0].header[0] === s.frame.components.length;
}

/**
 * Reads coefficients MCU row by MCU row from a single-scan sequential JPEG,
 * so a huge photo never needs more than a band in memory.
 */
export class SequentialReader {
  readonly g: FrameGeometry;
  readonly dqt: Uint8Array[];
  private readonly r: BitReader;
  private readonly dc: DecodeTable[];
  private readonly ac: DecodeTable[];
  private readonly restartInterval: number;
  private preds: number[];
  private mcu = 0;
  row = 0;

  constructor(b: Uint8Array, s: JpegStructure) {
    if (!s.frame || !isStreamable(s)) throw new Error("not a single-scan sequential JPEG");
    this.g = geometry(s.frame);
    const scan = s.scans[0];
    const tables = readTables(b, s, scan.offset);
    this.dqt = tables.dqt;
    this.restartInterval = tables.restartInterval;
    const header = parseScanHeader(scan.header, this.g);
    this.dc = [];
    this.ac = [];
    for (const c of header.components) {
      const dc = tables.dc[c.td];
      const ac = tables.ac[c.ta];
      if (!dc || !ac) throw new Error("a scan refers to a missing Huffman table");
      this.dc[c.index] = dc;
      this.ac[c.index] = ac;
    }
    this.preds = this.g.components.map(() => 0);
    this.r = new BitReader(b, scan.start);
  }

  /** Decodes the next `rows` MCU rows (fewer at the end). */
  next(rows: number): CoefBand {
    const n = Math.min(rows, this.g.mcusY - this.row);
    const band = emptyBand(this.g, this.row, n);
    const perMcu = this.g.components.reduce((a, c) => a + c.h * c.v, 0);
    let inMcu = 0;
    forEachBlockInMcuOrder(this.g, band, (ci, offset) => {
      if (inMcu === 0 && this.restartInterval && this.mcu > 0 && this.mcu % this.restartInterval === 0) {
        this.r.restart();
        this.preds = this.preds.map(() => 0);
      }
      this.preds[ci] = decodeBlock(this.r, this.dc[ci], this.ac[ci], band.planes[ci], offset, this.preds[ci]);
      if (++inMcu === perMcu) {
        inMcu = 0;
        this.mcu++;
      }
    });
    this.row += n;
    return band;
  }
}
