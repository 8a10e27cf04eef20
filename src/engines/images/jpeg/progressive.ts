import { BitReader } from "./bit-io";
import { decodeBlock } from "./blocks";
import { emptyBand, type CoefBand } from "./band";
import { geometry, parseScanHeader, readTables, type FrameGeometry, type ScanHeader, type Tables } from "./frame";
import type { DecodeTable } from "./huffman";
import { isProgressive, type JpegStructure } from "./markers";

// Coefficient decoding for progressive and multi-scan sequential files
// (T.81 G.1.2), band by band: see ProgressiveReader.

interface ScanState {
  r: BitReader;
  eobrun: number;
}

function decodeDcFirst(st: ScanState, t: DecodeTable, plane: Int16Array, at: number, pred: number, al: number): number {
  const s = st.r.decode(t);
  const v = pred + st.r.receiveExtend(s);
  plane[at] = v << al;
  return v;
}

function decodeAcFirst(st: ScanState, t: DecodeTable, plane: Int16Array, at: number, h: ScanHeader): void {
  if (st.eobrun > 0) {
    st.eobrun--;
    return;
  }
  for (let k = h.ss; k <= h.se; ) {
    const rs = st.r.decode(t);
    const run = rs >> 4,
      s = rs & 15;
    if (s === 0) {
      if (run < 15) {
        st.eobrun = (1 << run) - 1 + (run ? st.r.receive(run) : 0);
        return;
      }
      k += 16;
      continue;
    }
    k += run;
    if (k > 63) throw new Error("coefficient index out of range");
    plane[at + k] = st.r.receiveExtend(s) * (1 << h.al);
    k++;
  }
}

function decodeAcRefine(st: ScanState, t: DecodeTable, plane: Int16Array, at: number, h: ScanHeader): void {
  const p1 = 1 << h.al,
    m1 = -1 << h.al;
  let k = h.ss;
  const refine = (idx: number) => {
    const v = plane[at + idx];
    if (st.r.bit() && (v & p1) === 0) plane[at + idx] = v >= 0 ? v + p1 : v + m1;
  };
  if (st.eobrun <= 0) {
    for (; k <= h.se; ) {
      const rs = st.r.decode(t);
      let run = rs >> 4;
      const s = rs & 15;
      let value = 0;
      if (s === 0) {
        if (run < 15) {
          st.eobrun = (1 << run) + (run ? st.r.receive(run) : 0);
          break;
        }
      } else {
        value = st.r.bit() ? p1 : m1;
      }
      while (k <= h.se) {
        const z = k;
        if (plane[at + z] !== 0) refine(z);
        else {
          if (run === 0) {
            if (value) plane[at + z] = value;
            k++;
            break;
          }
          run--;
        }
        k++;
      }
    }
  }
  if (st.eobrun > 0) {
    for (; k <= h.se; k++) if (plane[at + k] !== 0) refine(k);
    st.eobrun--;
  }
}

interface ScanCursor {
  h: ScanHeader;
  tables: Tables;
  st: ScanState;
  preds: number[];
  /** MCUs (single blocks in a non-interleaved scan) decoded so far, for restart intervals. */
  mcu: number;
}

/**
 * Progressive and multi-scan sequential files, decoded band by band. Every
 * scan covers the whole image, but the entropy decoding of a block depends
 * only on its scan's own state (bit position, EOB run, DC predictors) and on
 * that block's values from earlier scans. So each scan keeps a cursor, and a
 * band of MCU rows is finished by running every scan, in file order, over just
 * those rows: only one band of coefficients exists at a time instead of the
 * whole image's (72 MB at 24 MP).
 */
export class ProgressiveReader {
  readonly g: FrameGeometry;
  readonly dqt: Uint8Array[];
  private readonly cursors: ScanCursor[];
  private readonly progressive: boolean;
  row = 0;

  constructor(b: Uint8Array, s: JpegStructure) {
    if (!s.frame) throw new Error("no frame");
    this.g = geometry(s.frame);
    this.progressive = isProgressive(s.frame.marker);
    this.cursors = s.scans.map((scan) => ({
      h: parseScanHeader(scan.header, this.g),
      tables: readTables(b, s, scan.offset),
      st: { r: new BitReader(b, scan.start), eobrun: 0 },
      preds: this.g.components.map(() => 0),
      mcu: 0,
    }));
    this.dqt = this.cursors.at(-1)?.tables.dqt ?? [];
  }

  /** The next `rows` MCU rows, every scan applied (fewer rows at the end). */
  next(rows: number): CoefBand {
    const n = Math.min(rows, this.g.mcusY - this.row);
    const band = emptyBand(this.g, this.row, n);
    for (const cur of this.cursors) this.scanRows(cur, band);
    this.row += n;
    return band;
  }

  private scanRows(cur: ScanCursor, band: CoefBand): void {
    const g = this.g;
    const { h, tables, st, preds } = cur;
    const ri = tables.restartInterval;
    const restartCheck = () => {
      if (ri && cur.mcu > 0 && cur.mcu % ri === 0) {
        st.r.restart();
        st.eobrun = 0;
        preds.fill(0);
      }
    };
    const one = (ci: number, at: number, td: number, ta: number) => {
      const plane = band.planes[ci];
      if (!this.progressive) {
        // Sequential scan of some components: baseline block coding.
        const dc = tables.dc[td],
          ac = tables.ac[ta];
        if (!dc || !ac) throw new Error("missing Huffman table");
        preds[ci] = decodeBlock(st.r, dc, ac, plane, at, preds[ci]);
      } else if (h.ss === 0) {
        if (h.ah === 0) {
          const dc = tables.dc[td];
          if (!dc) throw new Error("missing Huffman table");
          preds[ci] = decodeDcFirst(st, dc, plane, at, preds[ci], h.al);
        } else if (st.r.bit()) plane[at] |= 1 << h.al;
      } else {
        const ac = tables.ac[ta];
        if (!ac) throw new Error("missing Huffman table");
        if (h.ah === 0) decodeAcFirst(st, ac, plane, at, h);
        else decodeAcRefine(st, ac, plane, at, h);
      }
    };
    if (h.components.length === 1) {
      // Non-interleaved: the scan covers the component's real blocks, row by row.
      const { index, td, ta } = h.components[0];
      const c = g.components[index];
      const first = band.firstMcuRow * c.v;
      const end = Math.min((band.firstMcuRow + band.mcuRows) * c.v, c.realBh);
      for (let by = first; by < end; by++) {
        for (let bx = 0; bx < c.realBw; bx++) {
          restartCheck();
          one(index, ((by - first) * c.bw + bx) * 64, td, ta);
          cur.mcu++;
        }
      }
      return;
    }
    for (let my = 0; my < band.mcuRows; my++) {
      for (let mx = 0; mx < g.mcusX; mx++) {
        restartCheck();
        for (const { index, td, ta } of h.components) {
          const c = g.components[index];
          for (let v = 0; v < c.v; v++) for (let hh = 0; hh < c.h; hh++) one(index, ((my * c.v + v) * c.bw + mx * c.h + hh) * 64, td, ta);
        }
        cur.mcu++;
      }
    }
  }
}
