import { ascii, concat, u32be } from "../util/bytes";
import { exifOrientation } from "./exif";
import { ilocLayout, itemExtents, property, readBoxes, readHeifMeta, type Box, type HeifMeta } from "./isobmff";
import { heifOrientation } from "../pixels/orientation";

// AVIF container facts libavif's decoder does not act on for us: the display
// orientation (irot/imir, else EXIF) and the ICC profile. Also a repair: files
// converted from HEIC by some tools lack the `pixi` property, which libavif's
// strict mode rejects although every viewer shows them; we add one.

export interface AvifInfo {
  orientation: number;
  icc?: Uint8Array;
  sequence: boolean;
}

function exifOf(b: Uint8Array, m: HeifMeta): number {
  for (const id of m.exifItems) {
    const ext = itemExtents(b, m.iloc, id)[0];
    if (!ext || ext.offset + ext.length > b.length || ext.length < 4) continue;
    const data = b.subarray(ext.offset, ext.offset + ext.length);
    const skip = u32be(data, 0); // offset to the TIFF header (past an "Exif\0\0" prefix if any)
    return exifOrientation(data.subarray(4 + skip));
  }
  return 1;
}

export function avifInfo(b: Uint8Array): AvifInfo {
  const sequence = ascii(b, 8, 4) === "avis";
  const m = readHeifMeta(b);
  if (!m) return { orientation: 1, sequence };
  const irot = property(m, "irot");
  const imir = property(m, "imir");
  // HEIF says irot/imir govern; EXIF orientation only counts when they are absent (as libvips does).
  const orientation = irot || imir ? heifOrientation(irot ? b[irot.body] & 3 : 0, imir ? b[imir.body] & 1 : undefined) : exifOf(b, m);
  let icc: Uint8Array | undefined;
  const colr = m.properties.map((p) => p.box).find((x) => x.type === "colr" && ["prof", "rICC"].includes(ascii(b, x.body, 4)));
  if (colr) icc = b.slice(colr.body + 4, colr.end);
  return { orientation, icc, sequence };
}

function setSize(out: Uint8Array, box: Box, delta: number): void {
  const v = u32be(out, box.start) + delta;
  out[box.start] = v >>> 24;
  out[box.start + 1] = (v >>> 16) & 0xff;
  out[box.start + 2] = (v >>> 8) & 0xff;
  out[box.start + 3] = v & 0xff;
}

function writeU32(out: Uint8Array, at: number, v: number): void {
  out[at] = v >>> 24;
  out[at + 1] = (v >>> 16) & 0xff;
  out[at + 2] = (v >>> 8) & 0xff;
  out[at + 3] = v & 0xff;
}

/** Shifts file offsets in iloc that point past `from` (all item data, usually in mdat after meta). */
function shiftIloc(out: Uint8Array, iloc: Box, from: number, delta: number): boolean {
  const { offsetSize, baseSize, entries } = ilocLayout(out, iloc);
  // Only 4-byte fields (or none) are rewritten in place; wider ones would need the box rebuilt.
  if ((offsetSize !== 4 && offsetSize !== 0) || (baseSize !== 4 && baseSize !== 0)) return false;
  for (const e of entries) {
    if (e.method !== 0) continue;
    const baseShifted = baseSize === 4 && e.base >= from;
    if (baseShifted) writeU32(out, e.baseAt, e.base + delta);
    if (offsetSize !== 4 || baseShifted) continue;
    for (const x of e.extents) if (x.offset >= from) writeU32(out, x.offsetAt, x.offset - e.base + delta);
  }
  return true;
}

/** Adds `pixi` (from av1C: bit depth, mono or colour) when the primary item lacks it; else returns the input. */
export function withPixi(b: Uint8Array): Uint8Array {
  const m = readHeifMeta(b);
  if (!m || property(m, "pixi")) return b;
  const av1c = property(m, "av1C");
  if (!av1c || av1c.end - av1c.body < 3) return b;
  const flags = b[av1c.body + 2];
  const depth = flags & 0x20 ? 12 : flags & 0x40 ? 10 : 8;
  const channels = flags & 0x10 ? 1 : 3;
  const pixi = new Uint8Array(12 + 1 + channels);
  writeU32(pixi, 0, pixi.length);
  pixi.set([0x70, 0x69, 0x78, 0x69], 4); // "pixi", version/flags 0
  pixi[12] = channels;
  pixi.fill(depth, 13);
  // New property index = properties in ipco + 1; one more association for the primary item.
  const index = readBoxes(b, m.ipco.body, m.ipco.end).length + 1;
  const ipmaVersion = b[m.ipma.body - 4];
  const wide = (b[m.ipma.body - 1] & 1) === 1;
  if (index > (wide ? 0x7fff : 0x7f)) return b;
  let at = m.ipma.body + 4;
  const count = u32be(b, m.ipma.body);
  let entry = -1;
  for (let e = 0; e < count; e++) {
    const id = ipmaVersion < 1 ? (b[at] << 8) | b[at + 1] : u32be(b, at);
    const idBytes = ipmaVersion < 1 ? 2 : 4;
    const n = b[at + idBytes];
    if (id === m.primary) {
      entry = at + idBytes;
      break;
    }
    at += idBytes + 1 + n * (wide ? 2 : 1);
  }
  if (entry < 0) return b;
  const n = b[entry];
  const assocEnd = entry + 1 + n * (wide ? 2 : 1);
  const assoc = wide ? new Uint8Array([index >> 8, index & 0xff]) : new Uint8Array([index]);
  const out = concat([b.subarray(0, m.ipco.end), pixi, b.subarray(m.ipco.end, assocEnd), assoc, b.subarray(assocEnd)]);
  const delta = pixi.length + assoc.length;
  out[entry + pixi.length] = n + 1;
  // Box sizes: ipco grows by pixi, ipma by the association, iprp and meta by both.
  setSize(out, m.meta, delta);
  setSize(out, m.iprp, delta);
  setSize(out, m.ipco, pixi.length);
  setSize(out, { ...m.ipma, start: m.ipma.start + pixi.length }, assoc.length);
  const iloc = m.iloc.start > m.ipco.end ? { ...m.iloc, start: m.iloc.start + delta, body: m.iloc.body + delta } : m.iloc;
  if (!shiftIloc(out, iloc, m.meta.end, delta)) return b;
  return out;
}
