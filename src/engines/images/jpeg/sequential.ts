import { BitReader, type BitWriter, type ScanMark } from "./bit-io";
import { decodeBlock } from "./blocks";
import { emptyBand, forEachBlockInMcuOrder, type CoefBand } from "./band";
import { geometry, parseScanHeader, readTables, type FrameGeometry } from "./frame";
import type { DecodeTable } from "./huffman";
import { isProgressive, type JpegStructure } from "./markers";
import { memoryProbe } from "../memory/probe";
import type { SymbolLog } from "./symbol-log";
import type { ScanTables } from "./write";

/** Sequential (baseline/extended Huffman) files whose single scan carries every component. */
export function isStreamable(s: JpegStructure): boolean {
  return !!s.frame && !isProgressive(s.frame.marker) && s.scans.length === 1 && s.scans[0].header[0] === s.frame.components.length;
}

/**
 * Reads coefficients MCU row by MCU row from a single-scan sequential JPEG,
 * so a huge photo never needs more than a band in memory.
 *
 * It also marks where each MCU row, and the second MCU of each row, begin in
 * the scan, so a band can be handed to a decoder as the file's own
 * entropy-coded bits instead of being coded again: copyScan without restart
 * markers, copyIntervals with them.
 */
export class SequentialReader {
  readonly g: FrameGeometry;
  readonly dqt: Uint8Array[];
  /** The scan's Huffman tables by slot, and each component's slots (in frame order), as a header writes them. */
  readonly tables: ScanTables;
  /** Marks are kept and the scan can be copied: rows of two MCUs or more. */
  readonly copyable: boolean;
  readonly restartInterval: number;
  private readonly scanEnd: number;
  private readonly rowStart: ScanMark[] = [];
  private readonly afterFirstMcu: ScanMark[] = [];
  private readonly b: Uint8Array;
  private readonly r: BitReader;
  private readonly dc: DecodeTable[];
  private readonly ac: DecodeTable[];
  private preds: number[];
  private mcu = 0;
  row = 0;

  constructor(b: Uint8Array, s: JpegStructure) {
    if (!s.frame || !isStreamable(s)) throw new Error("not a single-scan sequential JPEG");
    this.g = geometry(s.frame);
    const scan = s.scans[0];
    const tables = readTables(b, s, scan.offset);
    this.dqt = tables.dqt;
    this.tables = { dc: tables.dcSpec, ac: tables.acSpec, td: [], ta: [] };
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
      this.tables.td[c.index] = c.td;
      this.tables.ta[c.index] = c.ta;
    }
    this.preds = this.g.components.map(() => 0);
    this.b = b;
    this.r = new BitReader(b, scan.start);
    this.scanEnd = scan.end;
    this.copyable = this.g.mcusX >= 2;
  }

  /** Decodes the next `rows` MCU rows (fewer at the end). */
  next(rows: number): CoefBand {
    const n = Math.min(rows, this.g.mcusY - this.row);
    const band = emptyBand(this.g, this.row, n);
    const perMcu = this.g.components.reduce((a, c) => a + c.h * c.v, 0);
    let inMcu = 0;
    const { mcusX } = this.g;
    forEachBlockInMcuOrder(this.g, band, (ci, offset) => {
      if (inMcu === 0 && this.restartInterval && this.mcu > 0 && this.mcu % this.restartInterval === 0) {
        this.r.restart();
        this.preds = this.preds.map(() => 0);
      }
      if (inMcu === 0 && this.copyable && this.mcu % mcusX < 2) {
        const at = Math.floor(this.mcu / mcusX);
        if (this.mcu % mcusX === 0) this.rowStart[at] = this.r.mark();
        else this.afterFirstMcu[at] = this.r.mark();
      }
      this.preds[ci] = decodeBlock(this.r, this.dc[ci], this.ac[ci], band.planes[ci], offset, this.preds[ci]);
      if (++inMcu === perMcu) {
        inMcu = 0;
        this.mcu++;
      }
    });
    this.row += n;
    if (this.copyable) this.rowStart[this.row] = this.r.mark();
    return band;
  }

  /**
   * The whole scan into `log`, block by block in MCU order, each value
   * re-quantised as it is decoded (SymbolLog.decodedBlock): a compress's
   * first pass, with no band of coefficients. Use on a fresh reader; the
   * memory probe is sampled every `sampleRows` MCU rows, as at band ends.
   */
  logScan(log: SymbolLog, dcFreq: Float64Array[], acFreq: Float64Array[], ratios: Float64Array[], acRounding: number, sampleRows: number): void {
    const { g, r } = this;
    const inPreds = g.components.map(() => 0);
    const outPreds = g.components.map(() => 0);
    let mcu = 0;
    for (let my = 0; my < g.mcusY; my++) {
      for (let mx = 0; mx < g.mcusX; mx++, mcu++) {
        if (this.restartInterval && mcu > 0 && mcu % this.restartInterval === 0) {
          r.restart();
          inPreds.fill(0);
        }
        for (let ci = 0; ci < g.components.length; ci++) {
          const c = g.components[ci];
          const t = ci === 0 ? 0 : 1;
          for (let b = c.h * c.v; b > 0; b--) {
            log.decodedBlock(r, this.dc[ci], this.ac[ci], dcFreq[t], acFreq[t], ci, inPreds, outPreds, ratios[ci], acRounding);
          }
        }
      }
      if ((my + 1) % sampleRows === 0) memoryProbe.sample();
    }
    this.row = g.mcusY;
  }

  /**
   * Appends to `w` the scan's bits from the second MCU of row `from` to the
   * end of row `to - 1`, rows already read. The caller codes the first MCU
   * itself: its DC values are differences from the row before, which a
   * decoder starting at `from` does not have.
   */
  copyScan(from: number, to: number, w: BitWriter): void {
    const start = this.afterFirstMcu[from];
    const end = this.rowStart[to];
    if (!this.copyable || this.restartInterval || !start || !end) throw new Error(`MCU rows ${from} to ${to} were not read with marks`);
    BitReader.resume(this.b, start).copyTo(w, end.consumed - start.consumed);
  }

  /** Whether the two bytes before `pos` are an RSTn marker (a damaged file may lack one where the reader resynchronised). */
  private followsRestart(pos: number): boolean {
    return pos >= 2 && this.b[pos - 2] === 0xff && this.b[pos - 1] >= 0xd0 && this.b[pos - 1] <= 0xd7;
  }

  /** Whether MCU row `row` starts a restart interval (or ends the scan): a copy may start or end there. */
  private intervalEdge(row: number): boolean {
    return row === this.g.mcusY || (row * this.g.mcusX) % this.restartInterval === 0;
  }

  /**
   * With restart markers: the scan's bytes for MCU rows [from, to), rows
   * already read, when both ends are restart edges (else null). Each
   * interval starts on a byte with DC predictions reset, so the bytes serve
   * as they are; only the RSTn markers inside are renumbered from RST0.
   */
  copyIntervals(from: number, to: number): Uint8Array | null {
    const start = this.rowStart[from];
    const end = this.rowStart[to];
    if (!this.copyable || !this.restartInterval || !start || !end || !this.intervalEdge(from) || !this.intervalEdge(to)) return null;
    // The reader marks a row after stepping over the RSTn before it: its data starts on a byte.
    if (start.bits !== 0 || (to < this.g.mcusY && (end.bits !== 0 || !this.followsRestart(end.pos)))) return null;
    const out = this.b.slice(start.pos, to < this.g.mcusY ? end.pos - 2 : this.scanEnd);
    const shift = ((from * this.g.mcusX) / this.restartInterval) % 8;
    // Every marker where it should be, in sequence; else the file is damaged here and the band is coded again
    // from what the reader made of it (libjpeg would resynchronise its own way).
    let seen = 0;
    for (let i = out.indexOf(0xff); i >= 0 && i + 1 < out.length; i = out.indexOf(0xff, i + 1)) {
      const m = out[i + 1];
      if (m < 0xd0 || m > 0xd7) continue;
      if (m - 0xd0 !== (shift + seen) % 8) return null;
      out[i + 1] = 0xd0 + (seen++ % 8);
    }
    const intervals = Math.ceil(((to - from) * this.g.mcusX) / this.restartInterval);
    return seen === intervals - 1 ? out : null;
  }
}
