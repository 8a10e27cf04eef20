import { u16be } from "../util/bytes";
import { decodeTable, type DecodeTable, type HuffmanSpec } from "./huffman";
import { DHT, DQT, DRI, type JpegFrame, type JpegStructure } from "./markers";

// The geometry of a JPEG frame in blocks and MCUs, and the tables a scan
// refers to, as the transcoding code needs them.

export interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  /** Blocks per line / column, padded to whole MCUs. */
  bw: number;
  bh: number;
  /** Blocks covering the component's real samples (what a non-interleaved scan codes). */
  realBw: number;
  realBh: number;
}

export interface FrameGeometry {
  width: number;
  height: number;
  hmax: number;
  vmax: number;
  mcusX: number;
  mcusY: number;
  /** MCU height in pixels. */
  mcuH: number;
  components: Component[];
}

export function geometry(f: JpegFrame): FrameGeometry {
  // A single-component frame is coded one block per MCU whatever factors it declares.
  const single = f.components.length === 1;
  const comps = f.components.map((c) => ({ ...c, h: single ? 1 : c.h, v: single ? 1 : c.v }));
  const hmax = Math.max(...comps.map((c) => c.h));
  const vmax = Math.max(...comps.map((c) => c.v));
  const mcusX = Math.ceil(f.width / (8 * hmax));
  const mcusY = Math.ceil(f.height / (8 * vmax));
  return {
    width: f.width,
    height: f.height,
    hmax,
    vmax,
    mcusX,
    mcusY,
    mcuH: 8 * vmax,
    components: comps.map((c) => ({
      ...c,
      bw: mcusX * c.h,
      bh: mcusY * c.v,
      realBw: Math.ceil(Math.ceil((f.width * c.h) / hmax) / 8),
      realBh: Math.ceil(Math.ceil((f.height * c.v) / vmax) / 8),
    })),
  };
}

export interface Tables {
  /** Raw DQT payloads in file order (copied verbatim into outputs). */
  dqt: Uint8Array[];
  dc: (DecodeTable | undefined)[];
  ac: (DecodeTable | undefined)[];
  dcSpec: (HuffmanSpec | undefined)[];
  acSpec: (HuffmanSpec | undefined)[];
  restartInterval: number;
}

export function emptyTables(): Tables {
  return { dqt: [], dc: [], ac: [], dcSpec: [], acSpec: [], restartInterval: 0 };
}

/** Applies DQT/DHT/DRI segments (those before `beforeOffset`, i.e. before a given scan). */
export function readTables(_b: Uint8Array, s: JpegStructure, beforeOffset: number, into = emptyTables()): Tables {
  for (const seg of s.segments) {
    if (seg.offset > beforeOffset) break;
    if (seg.marker === DQT) into.dqt.push(seg.data);
    else if (seg.marker === DRI && seg.data.length >= 2) into.restartInterval = u16be(seg.data, 0);
    else if (seg.marker === DHT) {
      let at = 0;
      const d = seg.data;
      while (at + 17 <= d.length) {
        const cls = d[at] >> 4;
        const id = d[at] & 15;
        const counts = d.slice(at + 1, at + 17);
        const n = counts.reduce((a, v) => a + v, 0);
        const spec = { counts, symbols: d.slice(at + 17, at + 17 + n) };
        if (cls === 0) {
          into.dc[id] = decodeTable(spec);
          into.dcSpec[id] = spec;
        } else {
          into.ac[id] = decodeTable(spec);
          into.acSpec[id] = spec;
        }
        at += 17 + n;
      }
    }
  }
  return into;
}

export interface ScanHeader {
  components: { index: number; td: number; ta: number }[];
  ss: number;
  se: number;
  ah: number;
  al: number;
}

export function parseScanHeader(h: Uint8Array, g: FrameGeometry): ScanHeader {
  const n = h[0];
  const components = [];
  for (let i = 0; i < n; i++) {
    const id = h[1 + 2 * i];
    const index = g.components.findIndex((c) => c.id === id);
    if (index < 0) throw new Error(`scan names unknown component ${id}`);
    components.push({ index, td: h[2 + 2 * i] >> 4, ta: h[2 + 2 * i] & 15 });
  }
  const at = 1 + 2 * n;
  return { components, ss: h[at], se: h[at + 1], ah: h[at + 2] >> 4, al: h[at + 2] & 15 };
}
