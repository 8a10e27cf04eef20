import { encodeJpeg } from "../codecs/jpeg";
import { DQT, parseJpeg, type JpegStructure } from "./markers";

// Quantisation tables as 64 step sizes in zig-zag order (the order of our
// coefficient planes and of DQT segments), keyed by table id.

export type QuantTables = Map<number, Uint16Array>;

/** Every DQT table of a file up to `beforeOffset` (later definitions of an id win). */
export function readQuantTables(s: JpegStructure, beforeOffset = Infinity): QuantTables {
  const tables: QuantTables = new Map();
  for (const seg of s.segments) {
    if (seg.offset > beforeOffset) break;
    if (seg.marker === DQT) addPayload(tables, seg.data);
  }
  return tables;
}

/** The tables of DQT payloads (later definitions of an id win), as a reader keeps them. */
export function quantTablesOf(payloads: Uint8Array[]): QuantTables {
  const tables: QuantTables = new Map();
  for (const d of payloads) addPayload(tables, d);
  return tables;
}

function addPayload(tables: QuantTables, d: Uint8Array): void {
  let at = 0;
  while (at < d.length) {
    const wide = d[at] >> 4 !== 0;
    const id = d[at] & 15;
    const q = new Uint16Array(64);
    for (let k = 0; k < 64; k++) q[k] = wide ? (d[at + 1 + 2 * k] << 8) | d[at + 2 + 2 * k] : d[at + 1 + k];
    if (q.some((v) => v === 0)) throw new Error("a quantisation table has a zero step");
    tables.set(id, q);
    at += 1 + (wide ? 128 : 64);
  }
}

/** One DQT payload (precision, id, 64 steps) for table `id`. */
export function dqtPayload(id: number, q: Uint16Array): Uint8Array {
  const wide = q.some((v) => v > 255);
  const out = new Uint8Array(1 + (wide ? 128 : 64));
  out[0] = ((wide ? 1 : 0) << 4) | id;
  for (let k = 0; k < 64; k++) {
    if (wide) {
      out[1 + 2 * k] = q[k] >> 8;
      out[2 + 2 * k] = q[k] & 0xff;
    } else out[1 + k] = q[k];
  }
  return out;
}

export interface MozjpegLayout {
  luma: Uint16Array;
  chroma: Uint16Array;
  /** Luma sampling factors MozJPEG picks at this quality (2x2 = 4:2:0 below 80, 2x1 = 4:2:2 below 90, 1x1 = 4:4:4). */
  lumaSampling: [number, number];
}

const cache = new Map<number, MozjpegLayout>();

/**
 * MozJPEG's own tables at `quality` (its default ImageMagick base tables and
 * quality scaling) and its automatic chroma sampling, taken from a 16x16
 * encode so they are exactly what the pixel path would write.
 */
export async function mozjpegTables(quality: number): Promise<MozjpegLayout> {
  const hit = cache.get(quality);
  if (hit) return hit;
  const px = { data: new Uint8Array(16 * 16 * 4).fill(128), width: 16, height: 16 };
  const s = parseJpeg(await encodeJpeg(px, quality, { progressive: false }));
  const t = readQuantTables(s);
  const luma = t.get(0),
    chroma = t.get(1),
    y = s.frame?.components[0];
  if (!luma || !chroma || !y) throw new Error("MozJPEG wrote no quantisation tables");
  const layout: MozjpegLayout = { luma, chroma, lumaSampling: [y.h, y.v] };
  cache.set(quality, layout);
  return layout;
}
