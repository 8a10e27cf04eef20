import { ByteWriter } from "../util/bytes";
import { writeHeif, type HeifItem, type ItemProp, type ItemReference } from "./heif-writer";
import { ispe } from "./item-props";
import type { AvifImageItem } from "./still";

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

/** Tiles in raster order, as avif/still.ts#encodeAvifItems gives them. */
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
      if (item.width !== tileWidth || item.height !== tileHeight)
        throw new Error(`AVIF grid: a tile is ${item.width}x${item.height}, not ${tileWidth}x${tileHeight}.`);
    }
  }
  const itemCount = (1 + tiles.length) * (withAlpha ? 2 : 1);
  if (itemCount > 0xffff) throw new Error("AVIF grid: too many items.");

  // Grid properties: those of the first tile, minus the codec configuration, with the output size.
  const gridProps = (tile: AvifImageItem): ItemProp[] => tile.props.filter((p) => p.type !== "av1C").map((p) => (p.type === "ispe" ? ispe(width, height) : p));

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
    const alphaTiles = tiles.map(
      (t, i): HeifItem => ({ id: alphaGrid.id + 1 + i, type: "av01", name: "Alpha", hidden: true, payload: t.alpha!.payload, props: t.alpha!.props }),
    );
    items.push(...alphaTiles);
    references.push({ type: "dimg", from: alphaGrid.id, to: alphaTiles.map((t) => t.id) }, { type: "auxl", from: alphaGrid.id, to: [colorGrid.id] });
  }

  const keepProfile = width <= BASELINE_MAX[0] && height <= BASELINE_MAX[1];
  const compatible = ["avif", "mif1", "miaf"];
  for (const br of brands) if (!compatible.includes(br) && (keepProfile || !PROFILE_BRANDS.has(br))) compatible.push(br);
  return writeHeif({ brands: compatible, primary: colorGrid.id, items, references });
}
