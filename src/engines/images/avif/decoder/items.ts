import { ascii, concat, u16be, u32be } from "../../util/bytes";
import { ilocEntries, ipmaEntries, readBoxes, readHeifMeta, type Box } from "../../formats/isobmff";

// What the banded AVIF reader needs from the HEIF container, read before
// anything is decoded: the primary item's AV1 data and its coding (av1C),
// size (ispe) and colour (colr nclx), and an alpha auxiliary item's; for a
// grid (ISO/IEC 23008-12 6.6.2.3), its descriptor and tiles in raster order.
// A single image is read as a grid of one tile. Files this reader does not
// cover (sequences, layered or premultiplied images, unknown essential
// properties, grids whose alpha is laid out unlike their colour) answer null
// and stay on libavif's whole road.

export interface AvifCoding {
  bitDepth: 8 | 10 | 12;
  monochrome: boolean;
  /** Chroma subsampling, horizontal and vertical (4:2:0: both). */
  subX: boolean;
  subY: boolean;
}

export interface AvifItem extends AvifCoding {
  id: number;
  width: number;
  height: number;
  /** The item's AV1 OBUs (a view of the file when stored in one extent). */
  data: Uint8Array;
}

/** colr nclx: matrix coefficients (ISO/IEC 23091-2) and range; absent: the AV1 sequence header's. */
export interface Nclx {
  matrix: number;
  fullRange: boolean;
}

export interface AvifLayout {
  /** The picture's size (a grid's output size crops its right and bottom tiles). */
  width: number;
  height: number;
  rows: number;
  columns: number;
  /** Colour tiles in raster order, all of one size and coding; one for a single image. */
  tiles: AvifItem[];
  /** Alpha tiles, laid out as the colour ones. */
  alphaTiles?: AvifItem[];
  nclx?: Nclx;
}

const ALPHA_URNS = new Set(["urn:mpeg:mpegB:cicp:systems:auxiliary:alpha", "urn:mpeg:hevc:2015:auxid:1"]);
/** Properties whose meaning this reader honours or may ignore as libavif's decoder does (clap, pasp, HDR metadata). */
const KNOWN = new Set(["av1C", "ispe", "colr", "pixi", "irot", "imir", "clap", "pasp", "clli", "mdcv", "cclv", "auxC", "a1lx"]);

function itemTypes(b: Uint8Array, iinf: Box): Map<number, string> {
  const version = b[iinf.body - 4];
  const out = new Map<number, string>();
  for (const infe of readBoxes(b, iinf.body + (version === 0 ? 2 : 4), iinf.end)) {
    const v = b[infe.body - 4];
    if (infe.type !== "infe" || v < 2) continue;
    const id = v === 2 ? u16be(b, infe.body) : u32be(b, infe.body);
    out.set(id, ascii(b, infe.body + (v === 2 ? 2 : 4) + 2, 4));
  }
  return out;
}

/** iref entries as [type, from, to]. */
function references(b: Uint8Array, iref: Box | undefined): [string, number, number][] {
  if (!iref) return [];
  const wide = b[iref.body - 4] !== 0;
  const out: [string, number, number][] = [];
  for (const r of readBoxes(b, iref.body, iref.end)) {
    let at = r.body;
    const from = wide ? u32be(b, at) : u16be(b, at);
    at += wide ? 4 : 2;
    const n = u16be(b, at);
    at += 2;
    for (let k = 0; k < n && at < r.end; k++, at += wide ? 4 : 2) out.push([r.type, from, wide ? u32be(b, at) : u16be(b, at)]);
  }
  return out;
}

function coding(b: Uint8Array, av1C: Box): AvifCoding | null {
  if (av1C.end - av1C.body < 4 || (b[av1C.body] & 0x7f) !== 1) return null;
  const flags = b[av1C.body + 2];
  const bitDepth = flags & 0x40 ? (flags & 0x20 ? 12 : 10) : 8;
  return { bitDepth, monochrome: (flags & 0x10) !== 0, subX: (flags & 0x08) !== 0, subY: (flags & 0x04) !== 0 };
}

function nclxOf(b: Uint8Array, colr: Box | undefined): Nclx | undefined {
  if (!colr || colr.end - colr.body < 11 || ascii(b, colr.body, 4) !== "nclx") return undefined;
  return { matrix: u16be(b, colr.body + 8), fullRange: (b[colr.body + 10] & 0x80) !== 0 };
}

/** An item's bytes: in the file (construction method 0) or in the meta's idat box (1). */
function itemData(b: Uint8Array, iloc: Box, idat: Box | undefined, id: number): Uint8Array | null {
  const entry = ilocEntries(b, iloc).get(id);
  if (!entry || entry.extents.length === 0 || entry.method > 1) return null;
  const [from, to] = entry.method === 1 ? (idat ? [idat.body, idat.end] : [0, 0]) : [0, b.length];
  const parts: Uint8Array[] = [];
  for (const e of entry.extents) {
    // A length of 0 means "to the end" (of the file or of idat).
    const start = from + e.offset;
    const end = e.length === 0 ? to : start + e.length;
    if (end > to || start > end) return null;
    parts.push(b.subarray(start, end));
  }
  return parts.length === 1 ? parts[0] : concat(parts);
}

interface ItemProps {
  boxes: Box[];
  essentialUnknown: boolean;
}

function propsOf(all: Box[], ipma: Map<number, [number, boolean][]>, id: number): ItemProps {
  const boxes: Box[] = [];
  let essentialUnknown = false;
  for (const [index, essential] of ipma.get(id) ?? []) {
    const box = all[index - 1];
    if (!box) continue;
    boxes.push(box);
    if (essential && !KNOWN.has(box.type)) essentialUnknown = true;
  }
  return { boxes, essentialUnknown };
}

/** Everything about the file's items that the layouts below look up. */
interface Items {
  b: Uint8Array;
  types: Map<number, string>;
  refs: [string, number, number][];
  props: (id: number) => ItemProps;
  data: (id: number) => Uint8Array | null;
}

const find = (p: ItemProps, t: string) => p.boxes.find((x) => x.type === t);

function avifItem(it: Items, id: number): AvifItem | null {
  const props = it.props(id);
  const av1C = find(props, "av1C");
  const ispe = find(props, "ispe");
  if (it.types.get(id) !== "av01" || props.essentialUnknown || !av1C || !ispe || find(props, "a1lx")) return null;
  const c = coding(it.b, av1C);
  const data = it.data(id);
  if (!c || !data) return null;
  return { id, width: u32be(it.b, ispe.body), height: u32be(it.b, ispe.body + 4), data, ...c };
}

interface Grid {
  width: number;
  height: number;
  rows: number;
  columns: number;
  tiles: AvifItem[];
}

/** An item as a grid: a 'grid' item's descriptor and tiles, or an 'av01' item as one tile. */
function gridOf(it: Items, id: number): Grid | null {
  if (it.types.get(id) === "av01") {
    const item = avifItem(it, id);
    return item && { width: item.width, height: item.height, rows: 1, columns: 1, tiles: [item] };
  }
  const d = it.types.get(id) === "grid" && !it.props(id).essentialUnknown ? it.data(id) : null;
  if (!d || d.length < 8 || d[0] !== 0) return null;
  const wide = (d[1] & 1) === 1;
  const rows = d[2] + 1;
  const columns = d[3] + 1;
  const width = wide ? u32be(d, 4) : u16be(d, 4);
  const height = wide ? (d.length >= 12 ? u32be(d, 8) : 0) : u16be(d, 6);
  const ids = it.refs.filter(([t, from]) => t === "dimg" && from === id).map(([, , to]) => to);
  if (ids.length !== rows * columns) return null;
  const tiles: AvifItem[] = [];
  for (const tile of ids) {
    const item = avifItem(it, tile);
    if (!item) return null;
    tiles.push(item);
  }
  const t = tiles[0];
  const same = tiles.every(
    (x) => x.width === t.width && x.height === t.height && x.bitDepth === t.bitDepth && x.monochrome === t.monochrome && x.subX === t.subX && x.subY === t.subY,
  );
  // The tiles cover the output and the last row and column are not wholly cropped away (as libavif requires).
  const covers = columns * t.width >= width && (columns - 1) * t.width < width && rows * t.height >= height && (rows - 1) * t.height < height;
  // The grid item's ispe (the size the header reports) must be the descriptor's.
  const ispe = find(it.props(id), "ispe");
  const sized = !ispe || (u32be(it.b, ispe.body) === width && u32be(it.b, ispe.body + 4) === height);
  return same && covers && sized && width > 0 && height > 0 ? { width, height, rows, columns, tiles } : null;
}

function auxType(b: Uint8Array, props: ItemProps): string {
  const auxC = find(props, "auxC");
  if (!auxC) return "";
  // auxC is a full box: the URN starts after version and flags, NUL-terminated.
  let end = auxC.body + 4;
  while (end < auxC.end && b[end] !== 0) end++;
  return ascii(b, auxC.body + 4, end - auxC.body - 4);
}

const nclxBox = (b: Uint8Array, p: ItemProps) => p.boxes.find((x) => x.type === "colr" && ascii(b, x.body, 4) === "nclx");

/** The primary item (and alpha) when this file can be read in bands; null when it cannot (it then goes whole). */
export function avifLayout(b: Uint8Array): AvifLayout | null {
  if (ascii(b, 8, 4) === "avis") return null;
  const m = readHeifMeta(b);
  const iinf = m?.boxes.find((x) => x.type === "iinf");
  if (!m || !iinf) return null;
  const all = readBoxes(b, m.ipco.body, m.ipco.end);
  const ipma = ipmaEntries(b, m.ipma);
  const idat = m.boxes.find((x) => x.type === "idat");
  const it: Items = {
    b,
    types: itemTypes(b, iinf),
    refs: references(
      b,
      m.boxes.find((x) => x.type === "iref"),
    ),
    props: (id) => propsOf(all, ipma, id),
    data: (id) => itemData(b, m.iloc, idat, id),
  };
  const color = gridOf(it, m.primary);
  if (!color) return null;
  // Premultiplied colour would need dividing by alpha: libavif's road does that.
  if (it.refs.some(([t, from]) => t === "prem" && from === m.primary)) return null;
  let alpha: Grid | undefined;
  for (const [t, from, to] of it.refs) {
    if (t !== "auxl" || to !== m.primary || !ALPHA_URNS.has(auxType(b, it.props(from)))) continue;
    const a = gridOf(it, from);
    const t0 = a?.tiles[0];
    const c0 = color.tiles[0];
    const alike = a && t0 && a.rows === color.rows && a.columns === color.columns && t0.width === c0.width && t0.height === c0.height;
    if (!alike || a.width !== color.width || a.height !== color.height) return null;
    alpha = a;
    break;
  }
  const nclx = nclxOf(b, nclxBox(b, it.props(m.primary))) ?? nclxOf(b, nclxBox(b, it.props(color.tiles[0].id)));
  return { ...color, alphaTiles: alpha?.tiles, nclx };
}
