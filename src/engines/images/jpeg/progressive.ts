import { BitReader } from "./bit-io";
import { decodeBlock } from "./blocks";
import type { CoefBand } from "./band";
import { geometry, parseScanHeader, readTables, type FrameGeometry, type ScanHeader, type Tables } from "./frame";
import type { DecodeTable } from "./huffman";
import { isProgressive, type JpegStructure } from "./markers";

// Whole-image coefficient decoding for progressive and multi-scan sequential
// files (T.81 G.1.2): every scan refines the same planes, so they are held
// whole (about 3 bytes per pixel at 4:2:0), then handed out band by band.

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
    const run = rs >> 4, s = rs & 15;
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
  const p1 = 1 << h.al, m1 = -1 << h.al;
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

export class FullPlanes {
  readonly g: FrameGeometry;
  readonly dqt: Uint8Array[];
  readonly planes: Int16Array[];
  row = 0;

  constructor(b: Uint8Array, s: JpegStructure) {
    if (!s.frame) throw new Error("no frame");
    this.g = geometry(s.frame);
    this.planes = this.g.components.map((c) => new Int16Array(c.bw * c.bh * 64));
    let tables: Tables | undefined;
    for (const scan of s.scans) {
      tables = readTables(b, s, scan.offset);
      this.scan(b, scan.start, parseScanHeader(scan.header, this.g), tables, isProgressive(s.frame.marker));
    }
    this.dqt = tables?.dqt ?? [];
  }

  private scan(b: Uint8Array, start: number, h: ScanHeader, tables: Tables, progressive: boolean): void {
    const g = this.g;
    const st: ScanState = { r: new BitReader(b, start), eobrun: 0 };
    const preds = g.components.map(() => 0);
    const ri = tables.restartInterval;
    let mcu = 0;
    const restartCheck = () => {
      if (ri && mcu > 0 && mcu % ri === 0) {
        st.r.restart();
        st.eobrun = 0;
        preds.fill(0);
      }
    };
    const one = (ci: number, at: number, td: number, ta: number) => {
      const plane = this.planes[ci];
      if (!progressive) {
        // Sequential scan of some components: baseline block coding.
        const dc = tables.dc[td], ac = tables.ac[ta];
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
      for (let by = 0; by < c.realBh; by++) {
        for (let bx = 0; bx < c.realBw; bx++) {
          restartCheck();
          one(index, (by * c.bw + bx) * 64, td, ta);
          mcu++;
        }
      }
      return;
    }
    for (let my = 0; my < g.mcusY; my++) {
      for (let mx = 0; mx < g.mcusX; mx++) {
        restartCheck();
        for (const { index, td, ta } of h.components) {
          const c = g.components[index];
          for (let v = 0; v < c.v; v++) for (let hh = 0; hh < c.h; hh++) one(index, ((my * c.v + v) * c.bw + mx * c.h + hh) * 64, td, ta);
        }
        mcu++;
      }
    }
  }

  /** The next `rows` MCU rows as a band (views into the planes, no copy). */
  next(rows: number): CoefBand {
    const n = Math.min(rows, this.g.mcusY - this.row);
    const planes = this.g.components.map((c, i) => this.planes[i].subarray(this.row * c.v * c.bw * 64, (this.row + n) * c.v * c.bw * 64));
    const band = { firstMcuRow: this.row, mcuRows: n, planes };
    this.row += n;
    return band;
  }
}
