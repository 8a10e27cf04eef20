import { ascii, u16be, u32be } from "../util/bytes";

// Just enough ISO-BMFF (HEIF/AVIF) to read the primary item's properties
// before decoding: size (ispe), rotation (irot), mirror (imir), pixel info
// (pixi), colour (colr), and where the Exif item lives.

export interface Box {
  type: string;
  /** Offset of the box header. */
  start: number;
  /** Offset of the payload (after size/type, and after version/flags for full boxes). */
  body: number;
  end: number;
}

// irot and imir are plain ItemProperty boxes: no version/flags before their byte.
const FULL_BOXES = new Set(["meta", "pitm", "iloc", "iinf", "infe", "ipma", "ispe", "pixi", "iref"]);

export function readBoxes(b: Uint8Array, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = u32be(b, at);
    const type = ascii(b, at + 4, 4);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = u32be(b, at + 8) * 2 ** 32 + u32be(b, at + 12);
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    out.push({ type, start: at, body: at + header + (FULL_BOXES.has(type) ? 4 : 0), end: at + size });
    at += size;
  }
  return out;
}

export interface ItemProperty {
  box: Box;
  essential: boolean;
}

export interface HeifMeta {
  meta: Box;
  primary: number;
  /** Properties of the primary item, in association order. */
  properties: ItemProperty[];
  ipco: Box;
  ipma: Box;
  iprp: Box;
  iloc: Box;
  /** Item ids whose infe type is "Exif". */
  exifItems: number[];
  boxes: Box[];
}

function readVar(b: Uint8Array, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 2) return u16be(b, at);
  if (size === 4) return u32be(b, at);
  if (size === 8) return u32be(b, at) * 2 ** 32 + u32be(b, at + 4);
  return 0;
}

function primaryItem(b: Uint8Array, pitm: Box): number {
  const version = b[pitm.body - 4];
  return version === 0 ? u16be(b, pitm.body) : u32be(b, pitm.body);
}

function exifItems(b: Uint8Array, iinf: Box): number[] {
  const version = b[iinf.body - 4];
  const first = iinf.body + (version === 0 ? 2 : 4);
  const out: number[] = [];
  for (const infe of readBoxes(b, first, iinf.end)) {
    if (infe.type !== "infe") continue;
    const v = b[infe.body - 4];
    if (v < 2) continue;
    const id = v === 2 ? u16be(b, infe.body) : u32be(b, infe.body);
    const typeAt = infe.body + (v === 2 ? 2 : 4) + 2;
    if (ascii(b, typeAt, 4) === "Exif") out.push(id);
  }
  return out;
}

/** Every item's property associations: [property index (1-based), essential]. */
export function ipmaEntries(b: Uint8Array, ipma: Box): Map<number, [number, boolean][]> {
  const version = b[ipma.body - 4];
  const wideIndex = (b[ipma.body - 1] & 1) !== 0;
  const out = new Map<number, [number, boolean][]>();
  let at = ipma.body;
  const count = u32be(b, at);
  at += 4;
  for (let e = 0; e < count && at < ipma.end; e++) {
    const id = version < 1 ? u16be(b, at) : u32be(b, at);
    at += version < 1 ? 2 : 4;
    const n = b[at++];
    const list: [number, boolean][] = [];
    for (let k = 0; k < n; k++) {
      if (wideIndex) {
        const v = u16be(b, at);
        list.push([v & 0x7fff, (v & 0x8000) !== 0]);
        at += 2;
      } else {
        list.push([b[at] & 0x7f, (b[at] & 0x80) !== 0]);
        at += 1;
      }
    }
    out.set(id, list);
  }
  return out;
}

export function readHeifMeta(b: Uint8Array): HeifMeta | null {
  const top = readBoxes(b, 0, b.length);
  const meta = top.find((x) => x.type === "meta");
  if (!meta) return null;
  const boxes = readBoxes(b, meta.body, meta.end);
  const find = (t: string) => boxes.find((x) => x.type === t);
  const pitm = find("pitm");
  const iprp = find("iprp");
  const iloc = find("iloc");
  const iinf = find("iinf");
  if (!pitm || !iprp || !iloc) return null;
  const inner = readBoxes(b, iprp.body, iprp.end);
  const ipco = inner.find((x) => x.type === "ipco");
  const ipma = inner.find((x) => x.type === "ipma");
  if (!ipco || !ipma) return null;
  const all = readBoxes(b, ipco.body, ipco.end);
  const primary = primaryItem(b, pitm);
  const properties: ItemProperty[] = [];
  for (const [index, essential] of ipmaEntries(b, ipma).get(primary) ?? []) {
    const box = all[index - 1];
    if (box) properties.push({ box, essential });
  }
  return { meta, primary, properties, ipco, ipma, iprp, iloc, exifItems: iinf ? exifItems(b, iinf) : [], boxes };
}

export interface ItemExtent {
  offset: number;
  length: number;
  /** Where the extent's own offset field is in the file (its width is the layout's `offsetSize`). */
  offsetAt: number;
}

export interface IlocEntry {
  id: number;
  /** 0: offsets in the file, 1: in the idat box. */
  method: number;
  base: number;
  /** Where the base offset field is in the file (its width is the layout's `baseSize`). */
  baseAt: number;
  extents: ItemExtent[];
}

/** The iloc box as written: field widths and, for each item, where its offsets stand, so a writer can shift them in place. */
export interface IlocLayout {
  offsetSize: number;
  baseSize: number;
  entries: IlocEntry[];
}

export function ilocLayout(b: Uint8Array, iloc: Box): IlocLayout {
  const version = b[iloc.body - 4];
  let at = iloc.body;
  const offsetSize = b[at] >> 4;
  const lengthSize = b[at] & 15;
  const baseSize = b[at + 1] >> 4;
  const indexSize = version >= 1 ? b[at + 1] & 15 : 0;
  at += 2;
  const count = version < 2 ? u16be(b, at) : u32be(b, at);
  at += version < 2 ? 2 : 4;
  const entries: IlocEntry[] = [];
  for (let e = 0; e < count && at < iloc.end; e++) {
    const id = version < 2 ? u16be(b, at) : u32be(b, at);
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version >= 1) {
      method = u16be(b, at) & 15;
      at += 2;
    }
    at += 2; // data_reference_index
    const baseAt = at;
    const base = readVar(b, at, baseSize);
    at += baseSize;
    const n = u16be(b, at);
    at += 2;
    const extents: ItemExtent[] = [];
    for (let k = 0; k < n; k++) {
      at += indexSize;
      const offsetAt = at;
      const offset = readVar(b, at, offsetSize);
      at += offsetSize;
      const length = readVar(b, at, lengthSize);
      at += lengthSize;
      extents.push({ offset: base + offset, length, offsetAt });
    }
    entries.push({ id, method, base, baseAt, extents });
  }
  return { offsetSize, baseSize, entries };
}

/** Every item's location entry by item id (extent offsets include the base offset). */
export function ilocEntries(b: Uint8Array, iloc: Box): Map<number, IlocEntry> {
  return new Map(ilocLayout(b, iloc).entries.map((e) => [e.id, e]));
}

/** File extents of an item (construction method 0 only, which is all stills use). */
export function itemExtents(b: Uint8Array, iloc: Box, item: number): ItemExtent[] {
  const entry = ilocEntries(b, iloc).get(item);
  return entry && entry.method === 0 ? entry.extents : [];
}

export function property(m: HeifMeta, type: string): Box | undefined {
  return m.properties.find((p) => p.box.type === type)?.box;
}
