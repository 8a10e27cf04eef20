import type { CoefBand } from "./band";
import { geometry, parseScanHeader, readTables, type FrameGeometry, type ScanHeader } from "./frame";
import { DAC, type JpegStructure } from "./markers";

// Sequential arithmetic-coded JPEG (SOF9, ITU-T T.81 Annex F.2.4 and the
// QM-coder of Annex D). MozJPEG's build has no arithmetic decoder; we decode
// the coefficients here and hand them on like any other (re-coded with
// Huffman tables for MozJPEG's IDCT). Progressive arithmetic (SOF10) is not
// supported.

// Table D.3: Qe, next index after LPS, next index after MPS, MPS switch; plus
// entry 113, a fixed 0.5 estimate (T.851) used for AC signs.
const D3 = `5a1d,1,1,1 2586,14,2,0 1114,16,3,0 080b,18,4,0 03d8,20,5,0 01da,23,6,0 00e5,25,7,0 006f,28,8,0 0036,30,9,0 001a,33,10,0
000d,35,11,0 0006,9,12,0 0003,10,13,0 0001,12,13,0 5a7f,15,15,1 3f25,36,16,0 2cf2,38,17,0 207c,39,18,0 17b9,40,19,0 1182,42,20,0
0cef,43,21,0 09a1,45,22,0 072f,46,23,0 055c,48,24,0 0406,49,25,0 0303,51,26,0 0240,52,27,0 01b1,54,28,0 0144,56,29,0 00f5,57,30,0
00b7,59,31,0 008a,60,32,0 0068,62,33,0 004e,63,34,0 003b,32,35,0 002c,33,9,0 5ae1,37,37,1 484c,64,38,0 3a0d,65,39,0 2ef1,67,40,0
261f,68,41,0 1f33,69,42,0 19a8,70,43,0 1518,72,44,0 1177,73,45,0 0e74,74,46,0 0bfb,75,47,0 09f8,77,48,0 0861,78,49,0 0706,79,50,0
05cd,48,51,0 04de,50,52,0 040f,50,53,0 0363,51,54,0 02d4,52,55,0 025c,53,56,0 01f8,54,57,0 01a4,55,58,0 0160,56,59,0 0125,57,60,0
00f6,58,61,0 00cb,59,62,0 00ab,61,63,0 008f,61,32,0 5b12,65,65,1 4d04,80,66,0 412c,81,67,0 37d8,82,68,0 2fe8,83,69,0 293c,84,70,0
2379,86,71,0 1edf,87,72,0 1aa9,87,73,0 174e,72,74,0 1424,72,75,0 119c,74,76,0 0f6b,74,77,0 0d51,75,78,0 0bb6,77,79,0 0a40,77,48,0
5832,80,81,1 4d1c,88,82,0 438e,89,83,0 3bdd,90,84,0 34ee,91,85,0 2eae,92,86,0 299a,93,87,0 2516,86,71,0 5570,88,89,1 4ca9,95,90,0
44d9,96,91,0 3e22,97,92,0 3824,99,93,0 32b4,99,94,0 2e17,93,86,0 56a8,95,96,1 4f46,101,97,0 47e5,102,98,0 41cf,103,99,0 3c3d,104,100,0
375e,99,93,0 5231,105,102,0 4c0f,106,103,0 4639,107,104,0 415e,103,99,0 5627,105,106,1 50e7,108,107,0 4b85,109,103,0 5597,110,109,0 504f,111,107,0
5a10,110,111,1 5522,112,109,0 59eb,112,111,1 5a1d,113,113,0`
  .split(/\s+/)
  .map((e) => e.split(","));
const QE = Uint16Array.from(D3, (e) => parseInt(e[0], 16));
const NLPS = Uint8Array.from(D3, (e) => Number(e[1]));
const NMPS = Uint8Array.from(D3, (e) => Number(e[2]));
const SWITCH = Uint8Array.from(D3, (e) => Number(e[3]));
const FIXED = 113;

/** QM decoder; a context ("bin") is one byte: state index in the low 7 bits, MPS in bit 7. */
class QmDecoder {
  private c = 0;
  private a = 0;
  private ct = -16;
  private pos: number;
  private marker = false;

  constructor(
    private readonly b: Uint8Array,
    start: number,
  ) {
    this.pos = start;
  }

  private byte(): number {
    if (this.marker || this.pos >= this.b.length) return 0;
    const v = this.b[this.pos++];
    if (v !== 0xff) return v;
    while (this.b[this.pos] === 0xff) this.pos++;
    if (this.b[this.pos] === 0) {
      this.pos++;
      return 0xff;
    }
    this.marker = true; // stop at the marker; the rest reads as zeros
    this.pos--;
    return 0;
  }

  decode(bins: Uint8Array, i: number): number {
    // Renormalise, reading bytes as needed (D.2.6).
    while (this.a < 0x8000) {
      if (--this.ct < 0) {
        this.c = this.c * 256 + this.byte();
        this.ct += 8;
        if (this.ct < 0 && ++this.ct === 0) this.a = 0x8000;
      }
      this.a *= 2;
    }
    const sv = bins[i];
    const state = sv & 0x7f;
    const qe = QE[state];
    let mps = sv >> 7;
    this.a -= qe;
    const scaled = this.a * 2 ** this.ct;
    if (this.c >= scaled) {
      // LPS interval (or conditional exchange).
      this.c -= scaled;
      if (this.a < qe) {
        this.a = qe;
        bins[i] = (sv & 0x80) | NMPS[state];
      } else {
        this.a = qe;
        bins[i] = ((sv & 0x80) ^ (SWITCH[state] << 7)) | NLPS[state];
        mps ^= 1;
      }
    } else if (this.a < 0x8000) {
      if (this.a < qe) {
        bins[i] = ((sv & 0x80) ^ (SWITCH[state] << 7)) | NLPS[state];
        mps ^= 1;
      } else {
        bins[i] = (sv & 0x80) | NMPS[state];
      }
    }
    return mps;
  }

  /** After a restart interval: skip RSTn and start afresh. */
  restart(): void {
    while (this.pos + 1 < this.b.length && !(this.b[this.pos] === 0xff && this.b[this.pos + 1] >= 0xd0 && this.b[this.pos + 1] <= 0xd7)) this.pos++;
    this.pos = Math.min(this.b.length, this.pos + 2);
    this.c = 0;
    this.a = 0;
    this.ct = -16;
    this.marker = false;
  }
}

interface Conditioning {
  dcL: number[];
  dcU: number[];
  acK: number[];
}

function conditioning(s: JpegStructure, before: number): Conditioning {
  const cond = { dcL: [0, 0, 0, 0], dcU: [1, 1, 1, 1], acK: [5, 5, 5, 5] };
  for (const seg of s.segments) {
    if (seg.offset > before || seg.marker !== DAC) continue;
    for (let at = 0; at + 1 < seg.data.length; at += 2) {
      const tc = seg.data[at] >> 4,
        tb = seg.data[at] & 3,
        v = seg.data[at + 1];
      if (tc === 0) {
        cond.dcL[tb] = v & 15;
        cond.dcU[tb] = v >> 4;
      } else cond.acK[tb] = v;
    }
  }
  return cond;
}

/** Statistics bins and predictions of one scan (reset at each restart). */
class ScanState {
  private readonly dc = [0, 1, 2, 3].map(() => new Uint8Array(64));
  private readonly ac = [0, 1, 2, 3].map(() => new Uint8Array(256));
  private readonly fixed = new Uint8Array([FIXED]);
  private readonly dcContext: number[];
  private readonly pred: number[];

  constructor(
    private readonly qm: QmDecoder,
    private readonly cond: Conditioning,
    components: number,
  ) {
    this.dcContext = new Array<number>(components).fill(0);
    this.pred = new Array<number>(components).fill(0);
  }

  restart(): void {
    this.qm.restart();
    for (const t of [...this.dc, ...this.ac]) t.fill(0);
    this.dcContext.fill(0);
    this.pred.fill(0);
  }

  /** Widens m while the category bins from `bin` say 1 (Figure F.23); answers [m, bin where it stopped]. */
  private category(bins: Uint8Array, bin: number, m: number): [number, number] {
    while (this.qm.decode(bins, bin)) {
      m <<= 1;
      if (m === 0x8000) throw new Error("arithmetic magnitude overflow");
      bin++;
    }
    return [m, bin];
  }

  /** The magnitude bits below m, read from bin st + 14 (Figure F.24); answers |value|. */
  private bits(bins: Uint8Array, st: number, m: number): number {
    let v = m;
    st += 14;
    while ((m >>= 1)) if (this.qm.decode(bins, st)) v |= m;
    return v + 1;
  }

  /** DC difference (F.2.4.1), updating the conditioning category of Table F.4. */
  private dcDiff(ci: number, td: number): number {
    const bins = this.dc[td];
    let st = this.dcContext[ci];
    if (this.qm.decode(bins, st) === 0) {
      this.dcContext[ci] = 0;
      return 0;
    }
    const sign = this.qm.decode(bins, st + 1);
    st += 2 + sign;
    let m = this.qm.decode(bins, st);
    if (m) [m, st] = this.category(bins, 20, m);
    const small = (1 << this.cond.dcL[td]) >> 1,
      large = (1 << this.cond.dcU[td]) >> 1;
    this.dcContext[ci] = m < small ? 0 : m > large ? 12 + sign * 4 : 4 + sign * 4;
    const v = this.bits(bins, st, m);
    return sign ? -v : v;
  }

  /** One block: DC difference, then AC coefficients until end of block (F.2.4.2). */
  block(ci: number, plane: Int16Array, at: number, td: number, ta: number): void {
    this.pred[ci] += this.dcDiff(ci, td);
    plane[at] = this.pred[ci];
    const bins = this.ac[ta];
    for (let k = 1; k <= 63; k++) {
      let st = 3 * (k - 1);
      if (this.qm.decode(bins, st)) break; // end of block
      while (this.qm.decode(bins, st + 1) === 0) {
        st += 3;
        if (++k > 63) throw new Error("arithmetic coefficient index out of range");
      }
      const sign = this.qm.decode(this.fixed, 0);
      st += 2;
      let m = this.qm.decode(bins, st);
      if (m && this.qm.decode(bins, st)) [m, st] = this.category(bins, k <= this.cond.acK[ta] ? 189 : 217, m << 1);
      const v = this.bits(bins, st, m);
      plane[at + k] = sign ? -v : v;
    }
  }
}

export class ArithmeticPlanes {
  readonly g: FrameGeometry;
  readonly dqt: Uint8Array[];
  readonly planes: Int16Array[];
  row = 0;

  constructor(b: Uint8Array, s: JpegStructure) {
    if (!s.frame) throw new Error("no frame");
    this.g = geometry(s.frame);
    this.planes = this.g.components.map((c) => new Int16Array(c.bw * c.bh * 64));
    let dqt: Uint8Array[] = [];
    for (const scan of s.scans) {
      const tables = readTables(b, s, scan.offset);
      dqt = tables.dqt;
      this.scan(b, scan.start, parseScanHeader(scan.header, this.g), conditioning(s, scan.offset), tables.restartInterval);
    }
    this.dqt = dqt;
  }

  private scan(b: Uint8Array, start: number, h: ScanHeader, cond: Conditioning, restartInterval: number): void {
    const g = this.g;
    const st = new ScanState(new QmDecoder(b, start), cond, g.components.length);
    let mcu = 0;
    const restart = () => {
      if (restartInterval && mcu > 0 && mcu % restartInterval === 0) st.restart();
    };
    if (h.components.length === 1) {
      const { index, td, ta } = h.components[0];
      const c = g.components[index];
      for (let by = 0; by < c.realBh; by++) {
        for (let bx = 0; bx < c.realBw; bx++, mcu++) {
          restart();
          st.block(index, this.planes[index], (by * c.bw + bx) * 64, td, ta);
        }
      }
      return;
    }
    for (let my = 0; my < g.mcusY; my++) {
      for (let mx = 0; mx < g.mcusX; mx++, mcu++) {
        restart();
        for (const { index, td, ta } of h.components) {
          const c = g.components[index];
          for (let v = 0; v < c.v; v++)
            for (let hh = 0; hh < c.h; hh++) st.block(index, this.planes[index], ((my * c.v + v) * c.bw + mx * c.h + hh) * 64, td, ta);
        }
      }
    }
  }

  next(rows: number): CoefBand {
    const n = Math.min(rows, this.g.mcusY - this.row);
    const planes = this.g.components.map((c, i) => this.planes[i].subarray(this.row * c.v * c.bw * 64, (this.row + n) * c.v * c.bw * 64));
    const band = { firstMcuRow: this.row, mcuRows: n, planes };
    this.row += n;
    return band;
  }
}
