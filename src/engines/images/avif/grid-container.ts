import { ascii, ByteWriter, concat, u16be, u32be } from "../bytes";
import { ilocEntries, ipmaEntries, readBoxes, type Box } from "../isobmff";
import { ALPHA_URN, ispe } from "./item-props";
import { writeHeif, type HeifItem, type ItemProp, type ItemReference } from "./heif-writer";

export type { ItemProp } from "./heif-writer";

// Grid AVIF (HEIF derived image item of type 'grid', ISO/IEC 23008-12 6.6.2.3)
// assembled from tiles encoded separately (avif/still.ts gives each tile's
// payload and item properties: colour item and, if any, its alpha auxiliary
// item), written as one file by heif-writer.ts:
//
//   ftyp  avif, compatible avif mif1 miaf (+ the tile's profile brand when the
//         output still fits it)
//   meta  hdlr 'pict', pitm = colour grid, iinf (infe v2), iref, iloc, iprp
//   mdat  grid descriptors, then every tile payload
//
// Layout facts follow what libavif writes for its own grids (`avifenc --grid`):
// tile items are hidden (infe flags 1); the grid item carries ispe(output size),
// pixi and colr, none essential; tiles carry ispe(tile size), pixi, av1C
// (essential) and colr; the alpha grid carries ispe(output), pixi(1 channel),
// auxC, an 'auxl' reference to the colour grid and its own 'dimg' to the alpha
// tiles; grid descriptors live in mdat (construction method 0). Identical
// property boxes are stored once in ipco.

export interface AvifImageItem {
  payload: Uint8Array;
  /** In ipma order, as the encoder wrote them (ispe, pixi, av1C, colr | auxC ...). */
  props: ItemProp[];
  width: number;
  height: number;
}

export interface SingleAvif {
  /** ftyp compatible brands. */
  brands: string[];
  color: AvifImageItem;
  alpha?: AvifImageItem;
}

// --- parsing -----------------------------------------------------------------

interface ItemInfo {
  id: number;
  type: string;
}

function fullVersion(b: Uint8Array, box: Box): number {
  return b[box.start + 8];
}

function infeList(b: Uint8Array, iinf: Box): ItemInfo[] {
  // iinf is a full box: version 0 has a u16 count, else u32.
  const first = iinf.body + (b[iinf.body - 4] === 0 ? 2 : 4);
  const out: ItemInfo[] = [];
  for (const infe of readBoxes(b, first, iinf.end)) {
    if (infe.type !== "infe") continue;
    const v = b[infe.body - 4];
    if (v < 2) continue;
    const id = v === 2 ? u16be(b, infe.body) : u32be(b, infe.body);
    out.push({ id, type: ascii(b, infe.body + (v === 2 ? 2 : 4) + 2, 4) });
  }
  return out;
}

/** References of one type in iref: from item -> to items. */
function irefs(b: Uint8Array, iref: Box | undefined, type: string): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (!iref) return out;
  const wide = b[iref.body - 4] !== 0;
  for (const r of readBoxes(b, iref.body, iref.end)) {
    if (r.type !== type) continue;
    let at = r.start + 8;
    const from = wide ? u32be(b, at) : u16be(b, at);
    at += wide ? 4 : 2;
    const n = u16be(b, at);
    at += 2;
    const to: number[] = [];
    for (let k = 0; k < n; k++, at += wide ? 4 : 2) to.push(wide ? u32be(b, at) : u16be(b, at));
    out.set(from, to);
  }
  return out;
}

/** Payload of every item stored in the file (construction method 0) or in idat (1). */
function ilocPayloads(b: Uint8Array, iloc: Box, idat: Box | undefined): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  for (const [id, { method, extents }] of ilocEntries(b, iloc)) {
    const origin = method === 1 ? (idat ? idat.start + 8 : -1) : 0;
    const parts = extents.map(({ offset, length }) => {
      const start = origin + offset;
      const size = length === 0 ? b.length - start : length; // 0 means "to the end of the file"
      if (origin < 0 || method > 1 || start + size > b.length) throw new Error(`AVIF tile: item ${id} data is out of range.`);
      return b.subarray(start, start + size);
    });
    out.set(id, parts.length === 1 ? parts[0] : concat(parts));
  }
  return out;
}

/**
 * Takes a single-image AVIF apart: the primary colour item and its alpha
 * auxiliary item (if any), each with a copy of its payload and property boxes.
 * The inverse of still.ts#writeStillAvif, for checking files we or others wrote.
 */
export function parseSingleAvif(b: Uint8Array): SingleAvif {
  const top = readBoxes(b, 0, b.length);
  const ftyp = top.find((x) => x.type === "ftyp");
  const meta = top.find((x) => x.type === "meta");
  if (!ftyp || !meta) throw new Error("AVIF tile: no ftyp/meta box.");
  const brands: string[] = [];
  for (let at = ftyp.body + 8; at + 4 <= ftyp.end; at += 4) brands.push(ascii(b, at, 4));
  const boxes = readBoxes(b, meta.body, meta.end);
  const find = (t: string) => boxes.find((x) => x.type === t);
  const pitm = find("pitm"), iinf = find("iinf"), iloc = find("iloc"), iprp = find("iprp");
  if (!pitm || !iinf || !iloc || !iprp) throw new Error("AVIF tile: incomplete meta box.");
  const primary = fullVersion(b, pitm) === 0 ? u16be(b, pitm.body) : u32be(b, pitm.body);
  const items = infeList(b, iinf);
  const inner = readBoxes(b, iprp.body, iprp.end);
  const ipco = inner.find((x) => x.type === "ipco");
  const ipma = inner.find((x) => x.type === "ipma");
  if (!ipco || !ipma) throw new Error("AVIF tile: no ipco/ipma.");
  const propBoxes = readBoxes(b, ipco.body, ipco.end);
  const assoc = ipmaEntries(b, ipma);
  const payloads = ilocPayloads(b, iloc, find("idat"));

  const itemOf = (id: number): AvifImageItem => {
    const info = items.find((i) => i.id === id);
    if (!info || info.type !== "av01") throw new Error(`AVIF tile: item ${id} is not an av01 image (${info?.type}).`);
    const payload = payloads.get(id);
    if (!payload) throw new Error(`AVIF tile: item ${id} has no data.`);
    const props: ItemProp[] = [];
    let width = 0, height = 0;
    for (const [index, essential] of assoc.get(id) ?? []) {
      const box = propBoxes[index - 1];
      if (!box) continue;
      if (box.type === "ispe") {
        width = u32be(b, box.start + 12);
        height = u32be(b, box.start + 16);
      }
      props.push({ box: b.slice(box.start, box.end), type: box.type, essential });
    }
    if (!width || !height) throw new Error(`AVIF tile: item ${id} has no ispe.`);
    return { payload: payload.slice(), props, width, height };
  };

  const color = itemOf(primary);
  let alpha: AvifImageItem | undefined;
  for (const [from, to] of irefs(b, find("iref"), "auxl")) {
    if (!to.includes(primary)) continue;
    const auxC = (assoc.get(from) ?? []).map(([i]) => propBoxes[i - 1]).find((x) => x?.type === "auxC");
    // auxC: full box header (12 bytes), then the NUL-terminated aux_type URN.
    if (auxC && ascii(b, auxC.start + 12, ALPHA_URN.length) === ALPHA_URN) alpha = itemOf(from);
  }
  return { brands, color, alpha };
}

// --- writing -----------------------------------------------------------------

export interface GridLayout {
  /**
   * Output size, which crops the padded tiles. MIAF 7.3.11.4.2 (and libavif, which
   * rejects anything else) wants it even in each dimension the tiles' chroma is
   * subsampled in: an odd side needs 4:4:4 tiles (grid-writer.ts does that).
   */
  width: number;
  height: number;
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
}

/** Tiles in raster order, as parsed from each tile's AVIF. */
export interface GridTile {
  color: AvifImageItem;
  alpha?: AvifImageItem;
}

/** ImageGrid payload: version 0, flags (bit 0: 32-bit output sizes), rows-1, columns-1, output size. */
function gridDescriptor(l: GridLayout): Uint8Array {
  const { width, height } = l;
  const wide = width > 0xffff || height > 0xffff;
  const w = new ByteWriter(12);
  w.u8(0);
  w.u8(wide ? 1 : 0);
  w.u8(l.rows - 1);
  w.u8(l.columns - 1);
  if (wide) {
    w.u32be(width);
    w.u32be(height);
  } else {
    w.u16be(width);
    w.u16be(height);
  }
  return w.result();
}

/**
 * irot (anticlockwise quarter turns) then imir (mode 0: top-to-bottom, 1:
 * left-to-right, as HEIF 2nd edition, libavif >= 0.11 and libheif read it),
 * per EXIF orientation, for a viewer to show the stored pixels upright; checked
 * against applyOrientation and against libheif (ImageMagick) on all eight.
 */
const ORIENTATION_TRANSFORMS: Record<number, [angle: number, mirror?: number]> = {
  2: [0, 1],
  3: [2],
  4: [0, 0],
  5: [1, 0],
  6: [3],
  7: [3, 0],
  8: [1],
};

/**
 * irot/imir properties that make a viewer show `orientation` (EXIF 1..8) from
 * the stored pixels. Transformative, so they go last in ipma (irot before
 * imir, the order they apply in); essential, as a viewer ignoring them would
 * show the picture turned.
 */
export function orientationProps(orientation: number): ItemProp[] {
  const t = ORIENTATION_TRANSFORMS[orientation];
  if (!t) return [];
  const [angle, mirror] = t;
  const out: ItemProp[] = [];
  if (angle) out.push({ box: new Uint8Array([0, 0, 0, 9, 0x69, 0x72, 0x6f, 0x74, angle]), type: "irot", essential: true });
  if (mirror !== undefined) out.push({ box: new Uint8Array([0, 0, 0, 9, 0x69, 0x6d, 0x69, 0x72, mirror]), type: "imir", essential: true });
  return out;
}

/** Profile brands (MA1B/MA1A) kept only while the output stays within the Baseline picture bounds. */
const PROFILE_BRANDS = new Set(["MA1B", "MA1A"]);
const BASELINE_MAX = [8192, 4352];

/**
 * Writes a grid AVIF from tiles encoded separately (all `tileWidth` ×
 * `tileHeight`, raster order). Either every tile has an alpha item or none.
 * `transforms` (see orientationProps) go on the primary (colour grid) item.
 */
export function writeGridAvif(layout: GridLayout, tiles: readonly GridTile[], brands: readonly string[], transforms: readonly ItemProp[] = []): Uint8Array {
  const { columns, rows, tileWidth, tileHeight, width, height } = layout;
  if (tiles.length !== columns * rows) throw new Error(`AVIF grid: ${tiles.length} tiles for a ${columns}x${rows} grid.`);
  if (columns < 1 || rows < 1 || columns > 256 || rows > 256) throw new Error(`AVIF grid: ${columns}x${rows} tiles is outside 1..256 per side.`);
  if ((columns - 1) * tileWidth >= width || columns * tileWidth < width || (rows - 1) * tileHeight >= height || rows * tileHeight < height) {
    throw new Error("AVIF grid: the output size does not match the tile layout.");
  }
  const withAlpha = tiles[0].alpha !== undefined;
  for (const t of tiles) {
    if ((t.alpha !== undefined) !== withAlpha) throw new Error("AVIF grid: tiles disagree on alpha.");
    for (const item of t.alpha ? [t.color, t.alpha] : [t.color]) {
      if (item.width !== tileWidth || item.height !== tileHeight) throw new Error(`AVIF grid: a tile is ${item.width}x${item.height}, not ${tileWidth}x${tileHeight}.`);
    }
  }
  const itemCount = (1 + tiles.length) * (withAlpha ? 2 : 1);
  if (itemCount > 0xffff) throw new Error("AVIF grid: too many items.");

  // Grid properties: those of the first tile, minus the codec configuration, with the output size.
  const gridProps = (tile: AvifImageItem): ItemProp[] =>
    tile.props.filter((p) => p.type !== "av1C").map((p) => (p.type === "ispe" ? ispe(width, height) : p));

  const descriptor = gridDescriptor(layout);
  const items: HeifItem[] = [];
  // Transformative properties (irot/imir) on the colour grid only, as libavif writes them:
  // the alpha plane is part of the reconstructed primary image they apply to.
  const colorGrid: HeifItem = { id: 1, type: "grid", name: "Color", hidden: false, payload: descriptor, props: [...gridProps(tiles[0].color), ...transforms] };
  items.push(colorGrid);
  const colorTiles = tiles.map((t, i): HeifItem => ({ id: 2 + i, type: "av01", name: "Color", hidden: true, payload: t.color.payload, props: t.color.props }));
  items.push(...colorTiles);
  const references: ItemReference[] = [{ type: "dimg", from: colorGrid.id, to: colorTiles.map((t) => t.id) }];
  if (withAlpha) {
    const alphaGrid: HeifItem = { id: 2 + tiles.length, type: "grid", name: "Alpha", hidden: false, payload: descriptor, props: gridProps(tiles[0].alpha!) };
    items.push(alphaGrid);
    const alphaTiles = tiles.map((t, i): HeifItem => ({ id: alphaGrid.id + 1 + i, type: "av01", name: "Alpha", hidden: true, payload: t.alpha!.payload, props: t.alpha!.props }));
    items.push(...alphaTiles);
    references.push({ type: "dimg", from: alphaGrid.id, to: alphaTiles.map((t) => t.id) }, { type: "auxl", from: alphaGrid.id, to: [colorGrid.id] });
  }

  const keepProfile = width <= BASELINE_MAX[0] && height <= BASELINE_MAX[1];
  const compatible = ["avif", "mif1", "miaf"];
  for (const br of brands) if (!compatible.includes(br) && (keepProfile || !PROFILE_BRANDS.has(br))) compatible.push(br);
  return writeHeif({ brands: compatible, primary: colorGrid.id, items, references });
}
