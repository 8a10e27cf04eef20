import type { RowSink } from "../memory/bands";
import type { Pixels } from "../types";
import { orientationProps, writeGridAvif, type GridLayout, type GridTile } from "./grid-container";
import { ScreenContentStats, screenToolsOf } from "./screen-content";
import type { ScreenTools } from "../codecs/av1-still";
import { encodeAvifItems } from "./still";

// AVIF of any size in bounded memory: the picture is cut into equal tiles, each
// encoded as its own AV1 still by our encoder (avif/still.ts; aom's heap grows
// with the picture it encodes), then one 'grid' item ties them together (see
// grid-container.ts). Rows arrive top to bottom; one row of tiles is buffered,
// encoded as soon as it is complete, and only the compressed payloads are
// kept. Each row of tiles gets the screen-content decision made so far for
// the picture (screen-content.ts), and aom chooses its size-dependent speed
// features by the picture's shorter side, not the tile's (av1-still.ts:
// searched as a thumbnail, a 12 MP grid took 1.5x as long). Tiles on the right
// and bottom edges are padded by repeating the edge pixels (all grid tiles
// have one size); the grid's output size crops the padding away.
//
// Alpha is decided up front (`alpha` option), because a grid's tiles must all
// be alike and the writer cannot know about later rows: with alpha false the
// alpha channel is ignored (written opaque, no alpha item); with alpha true
// every tile carries an alpha item, opaque tiles included.
//
// Odd sizes: MIAF 7.3.11.4.2 wants a grid's output size even in every dimension
// the tiles' chroma is subsampled in, and libavif (ours, Chrome's, avifdec)
// rejects an odd 4:2:0 grid as invalid; a 'clap' crop does not help either
// (libavif's strict mode wants an even crop width/offset with 4:2:0). So a
// picture with an odd side gets 4:4:4 tiles (AV1 High profile, which every
// AVIF decoder reads). Measured at 3999 x 2999 against 4000 x 3000 in 4:2:0:
// +15 % bytes on a photo, +2 % on text, 4x on synthetic chroma noise; worst
// encoder heap about 20 % higher.

/**
 * Largest tile side for a picture that may be screen content (aom may search
 * IntraBC there). The picture is split into the fewest tiles of at most
 * 288 x 288, all equal and even (4000 x 3000 gives 14 x 11 tiles of 286 x 274).
 * Measured (Node 22, one core, quality 85, 12 MP): aom's heap is ~16 MB for any
 * tile up to ~400 x 400 on most pictures, but some smooth content (an upscaled
 * photo) makes it allocate ~210-260 bytes a tile pixel on top: worst heaps seen
 * were 33 MB (250 x 250 tiles), 48 MB (364 x 376 and 500 x 250), 69 MB
 * (500 x 500), 100 MB (1000 x 500), 172 MB (1000 x 1000). Bytes against
 * 500 x 500 tiles: 250 x 250 +8-18 %, 364 x 376 +2-5 %, 1000 x 1000 -2-6 %;
 * time about equal (per-tile setup is small next to the encoding). 288 keeps
 * the worst heap near 40 MB, so a 24 MP JPEG read in bands (about 24 MB) can
 * feed a grid within an image call's 80 MB even at worst (memory-fit.ts).
 * Those worst heaps are IntraBC's hash tables (aom turned IntraBC on for the
 * upscaled photo); the screen-content rule now keeps IntraBC for text and
 * screenshots, and aliased text measured 28 MB at 286 x 274 and 48 MB at
 * 500 x 500 (30 % smaller: tiles bound IntraBC's copies).
 */
export const AVIF_GRID_TILE = 288;

/**
 * Largest tile side for a photo: a picture whose first rows do not pass the
 * screen-content rule for IntraBC (screen-content.ts) gets bigger tiles, in
 * which IntraBC is never searched. Without IntraBC aom's heap stays near its
 * 16 MB base: measured 16-23 MB at 500 x 500, and at most 54 MB for a
 * 1000 x 763 tile (50 bytes a tile pixel on top). Bigger tiles pay fewer
 * tile edges: against avifenc's one frame at the same quantizer and speed,
 * 288 -> 512 took the bench photos from +7.8 to +4.7 % (1000 x 1525), +3.2
 * to +1.7 % (1600 x 2440), +6.2 to +2.5 % (4000 x 3000) and +5.9 to +2.3 %
 * (6000 x 4000), in 7-15 % less time. Bigger still was no better on the
 * whole (where tile edges fall moves the size by a few per cent either way).
 */
export const AVIF_PHOTO_TILE = 512;

/**
 * Rows judged for screen content before the tile size is chosen: four rows
 * of aom's 16 x 16 blocks. A screenshot's top rows (title bars, menus, text)
 * pass; the later rows of tiles are still judged as they come, for palette
 * (and for IntraBC when the tiles are the small ones).
 */
const JUDGED_ROWS = 64;

/**
 * Outputs up to this many pixels are written as one AV1 frame, larger ones as
 * a grid. A whole frame is smaller (at 2 MP the grid is 8-11 % bigger: per-tile
 * headers, no prediction across tile edges, and 1.1-1.6x slower) but its heap
 * grows with the picture: 69 MB at 2 MP, 123-148 MB at 4 MP (up to 37 bytes a
 * pixel). At 1.5 MP a whole frame (about 55 MB at worst) plus a whole decode of
 * a JPEG or PNG source still fits an image call; above it the grid does.
 */
export const AVIF_GRID_PIXELS = 1_500_000;

/** Row-of-tiles buffer cap: very wide pictures get lower tiles (not below 64 rows). */
const ROW_BUFFER_BYTES = 16 << 20;

export interface AvifGridOptions {
  /** Keep the alpha channel (every tile gets an alpha item); false ignores it. Default false. */
  alpha?: boolean;
  /**
   * EXIF orientation (1..8) the file must show: written as irot/imir on the grid,
   * the pixels stay in stored order (width/height are the stored size). Default 1.
   */
  orientation?: number;
  /** Upper bounds for the screen-content tile size (even, ≥ 64); mostly for measurement. */
  maxTileWidth?: number;
  maxTileHeight?: number;
  /** Upper bound for a photo's tile side (AVIF_PHOTO_TILE); at or below the screen tile, one layout for every picture. */
  photoTile?: number;
}

const even = (n: number) => n + (n & 1);

/** 4:4:4 tiles when a side is odd (see the top comment). */
const chromaFor = (width: number, height: number): "420" | "444" => (width % 2 || height % 2 ? "444" : "420");

/** Splits `size` into the fewest tiles of at most `max`, all equal and even, at least 64. */
function split(size: number, max: number): [count: number, tile: number] {
  let count = Math.ceil(size / max);
  for (;;) {
    const tile = Math.max(64, even(Math.ceil(size / count)));
    if ((count - 1) * tile < size) return [count, tile];
    count--; // rounding up made the last tile empty: fewer, slightly larger tiles
  }
}

export function gridLayout(width: number, height: number, opts: AvifGridOptions = {}): GridLayout {
  if (!(width >= 1 && height >= 1)) throw new Error(`AVIF grid: bad size ${width}x${height}.`);
  const maxW = Math.max(64, (opts.maxTileWidth ?? AVIF_GRID_TILE) & ~1);
  let maxH = Math.max(64, (opts.maxTileHeight ?? AVIF_GRID_TILE) & ~1);
  // Bound the row buffer for very wide pictures (16 MB: full 384-row tiles up to 10922 px wide).
  maxH = Math.max(64, Math.min(maxH, Math.floor(ROW_BUFFER_BYTES / (width * 4)) & ~7));
  const [columns, tileWidth] = split(width, maxW);
  const [rows, tileHeight] = split(height, maxH);
  if (columns > 256 || rows > 256) throw new Error(`AVIF grid: ${width}x${height} needs more than 256 tiles a side.`);
  return { width, height, columns, rows, tileWidth, tileHeight };
}

/**
 * aom's heap for one tile: ~16 MB, plus up to ~260 bytes a tile pixel in 4:2:0
 * and ~310 in 4:4:4 in the worst case measured with IntraBC (see
 * AVIF_GRID_TILE), and up to 50 (60 in 4:4:4) without it (AVIF_PHOTO_TILE).
 */
const ENCODER_BASE_BYTES = 16 << 20;
const ENCODER_WORST_BYTES_PER_TILE_PIXEL = { "420": 260, "444": 310 };
const PHOTO_ENCODER_WORST_BYTES_PER_TILE_PIXEL = { "420": 50, "444": 60 };
/**
 * Compressed tiles kept until finish(), then copied once more into the file:
 * 2 x 0.1 bytes a pixel (photos at quality 85 measured 0.01-0.08).
 */
const KEPT_BYTES_PER_PIXEL = 0.2;

/** The two layouts a picture may get, and what each costs besides the kept tiles. */
interface GridLayouts {
  screen: GridLayout;
  /** The same object as `screen` when bigger tiles would not fit in the screen layout's memory. */
  photo: GridLayout;
  bytes: number;
}

/** The row of tiles, one tile and aom's heap at worst. */
function layoutBytes(l: GridLayout, width: number, perTilePixel: number): number {
  const tilePixels = l.tileWidth * l.tileHeight;
  return l.tileHeight * width * 4 + tilePixels * 4 + ENCODER_BASE_BYTES + tilePixels * perTilePixel;
}

/**
 * The screen-content layout, and the photo layout with the tallest tiles (up
 * to the photo side) whose rows, tile and heap, with the rows judged first,
 * cost no more than the screen layout's: the picture's memory estimate is
 * the same whichever it gets, so bigger tiles never refuse a picture.
 */
function gridLayouts(width: number, height: number, opts: AvifGridOptions): GridLayouts {
  const chroma = chromaFor(width, height);
  const screen = gridLayout(width, height, opts);
  const bytes = layoutBytes(screen, width, ENCODER_WORST_BYTES_PER_TILE_PIXEL[chroma]);
  const side = Math.max(64, (opts.photoTile ?? AVIF_PHOTO_TILE) & ~1);
  const judged = Math.min(JUDGED_ROWS, height) * width * 4;
  for (let maxH = side; maxH >= 64; maxH -= 8) {
    const photo = gridLayout(width, height, { maxTileWidth: side, maxTileHeight: maxH });
    if (photo.tileWidth * photo.tileHeight <= screen.tileWidth * screen.tileHeight) break;
    if (judged + layoutBytes(photo, width, PHOTO_ENCODER_WORST_BYTES_PER_TILE_PIXEL[chroma]) <= bytes) return { screen, photo, bytes };
  }
  return { screen, photo: screen, bytes };
}

/**
 * Peak memory of an AvifGridWriter for a picture (bytes, for memory-fit.ts): the
 * row of tiles it buffers, one tile, the encoder's heap at worst, and the
 * compressed tiles plus the file. 6000 x 4000: ~47 MB; the encoder heap is
 * ~16 MB on most pictures, so typical use is well below.
 */
export function avifGridBytes(width: number, height: number, opts: AvifGridOptions = {}): number {
  return gridLayouts(width, height, opts).bytes + width * height * KEPT_BYTES_PER_PIXEL;
}

/**
 * One AV1 frame (codecs/encode.ts, up to AVIF_GRID_PIXELS): aom's heap is
 * 16 MB and up to 37 bytes a pixel with IntraBC off (measured 69 MB at
 * 1.5 MP, 73 MB at 1.63 MP). Searched, IntraBC's hash tables add up to
 * 260 bytes a pixel (a 1 MP frame of aliased text took 123 MB, a 1.6 MP
 * smooth upscale, which aom's own rule counts as screen content, 159 MB),
 * so screen content gets one frame only up to a grid tile's pixels, and a
 * grid of small tiles above that.
 */
const FRAME_BYTES_PER_PIXEL = 37;
export const AVIF_SCREEN_FRAME_PIXELS = AVIF_GRID_TILE * AVIF_GRID_TILE;

/** Peak memory of one frame of this size, or of the grid screen content takes instead (bytes, for memory-fit.ts). */
export function avifFrameBytes(width: number, height: number): number {
  const pixels = width * height;
  const photo = ENCODER_BASE_BYTES + pixels * FRAME_BYTES_PER_PIXEL;
  const screen = pixels <= AVIF_SCREEN_FRAME_PIXELS ? ENCODER_BASE_BYTES + pixels * ENCODER_WORST_BYTES_PER_TILE_PIXEL["420"] : avifGridBytes(width, height);
  return Math.max(photo, screen);
}

export class AvifGridWriter implements RowSink {
  private readonly layouts: GridLayouts;
  /** Chosen once the first rows are judged (judgeBuf holds them till then). */
  private chosen: GridLayout | null = null;
  private judgeBuf: Uint8Array | null = null;
  private readonly alpha: boolean;
  private readonly orientation: number;
  /** 4:4:4 tiles when a side is odd (see the top comment), else 4:2:0. */
  readonly chroma: "420" | "444";
  private rowBuf: Uint8Array | null = null;
  private tileBuf: Uint8Array | null = null;
  private finished = false;
  /** Rows held in rowBuf (or judgeBuf), and rows received in all. */
  private held = 0;
  private received = 0;
  private readonly tiles: GridTile[] = [];
  private readonly screen = new ScreenContentStats();
  /** The alpha item's own judgement (its tiles are frames of their own), when the grid keeps alpha. */
  private readonly alphaScreen = new ScreenContentStats("alpha");
  private brands: string[] = [];

  constructor(
    readonly width: number,
    readonly height: number,
    readonly quality: number,
    opts: AvifGridOptions = {},
  ) {
    this.layouts = gridLayouts(width, height, opts);
    this.alpha = opts.alpha ?? false;
    this.orientation = opts.orientation ?? 1;
    this.chroma = chromaFor(width, height);
    if (this.layouts.photo === this.layouts.screen) this.choose(this.layouts.screen);
    else this.judgeBuf = new Uint8Array(Math.min(JUDGED_ROWS, height) * width * 4);
  }

  /** The grid's layout: known once the first rows have been judged (from the start when the picture has one). */
  get layout(): GridLayout {
    if (!this.chosen) throw new Error("AVIF grid: the layout is chosen by the first rows.");
    return this.chosen;
  }

  /** Whether the picture got the photo layout (bigger tiles, no IntraBC): for tests and measurement. */
  get photoTiles(): boolean {
    return this.chosen === this.layouts.photo && this.layouts.photo !== this.layouts.screen;
  }

  async write(rows: Pixels): Promise<void> {
    if (this.finished) throw new Error("AVIF grid: write after finish.");
    if (rows.width !== this.width) throw new Error(`AVIF grid: rows are ${rows.width} wide, not ${this.width}.`);
    if (this.received + rows.height > this.height) throw new Error("AVIF grid: more rows than the picture has.");
    const rowBytes = this.width * 4;
    let y = 0;
    while (y < rows.height) {
      const buf = (this.rowBuf ?? this.judgeBuf)!;
      const n = Math.min(rows.height - y, buf.length / rowBytes - this.held);
      buf.set(rows.data.subarray(y * rowBytes, (y + n) * rowBytes), this.held * rowBytes);
      this.held += n;
      this.received += n;
      y += n;
      if (!this.chosen && (this.held * rowBytes === buf.length || this.received === this.height)) this.judge();
      if (this.chosen && (this.held === this.chosen.tileHeight || this.received === this.height)) await this.flushRow();
    }
  }

  async finish(): Promise<Uint8Array> {
    if (this.received !== this.height) throw new Error(`AVIF grid: ${this.received} of ${this.height} rows written.`);
    this.finished = true;
    this.rowBuf = this.tileBuf = null;
    const out = writeGridAvif(this.layout, this.tiles, this.brands, orientationProps(this.orientation));
    this.tiles.length = 0;
    return out;
  }

  /** Chooses the layout by the rows judged (screen content keeps the small tiles) and moves them into its row buffer. */
  private judge(): void {
    const judged = this.judgeBuf!.subarray(0, this.held * this.width * 4);
    const rows = { data: judged, width: this.width, height: this.held };
    const screen = screenToolsOf(rows) === "all" || (this.alpha && screenToolsOf(rows, "alpha") === "all");
    this.choose(screen ? this.layouts.screen : this.layouts.photo, judged);
  }

  /**
   * Allocates the layout's buffers. The judged rows and the new row buffer
   * live together only before the tile buffer and the encoder's heap exist,
   * and they are smaller than those (at most 64 rows, and the encoder's base
   * is 16 MB), so the estimate's peak holds.
   */
  private choose(layout: GridLayout, judged?: Uint8Array): void {
    this.chosen = layout;
    this.rowBuf = new Uint8Array(layout.tileHeight * this.width * 4);
    if (judged) this.rowBuf.set(judged);
    this.judgeBuf = null;
    this.tileBuf = new Uint8Array(layout.tileWidth * layout.tileHeight * 4);
  }

  /** Encodes the buffered row of tiles (the last one may be short: its rows are padded). */
  private async flushRow(): Promise<void> {
    const { tileWidth: tw, tileHeight: th, columns } = this.layout;
    const src = this.rowBuf!;
    const tile = this.tileBuf!;
    const rowBytes = this.width * 4;
    this.screen.add(src, this.width, this.held);
    if (this.alpha) this.alphaScreen.add(src, this.width, this.held);
    // Photo tiles are too big for IntraBC's hash tables within the estimate: palette at most.
    const bounded = (tools: ScreenTools): ScreenTools => (tools === "all" && this.photoTiles ? "palette" : tools);
    const screenTools = bounded(this.screen.tools());
    const alphaScreenTools = this.alpha ? bounded(this.alphaScreen.tools()) : undefined;
    for (let c = 0; c < columns; c++) {
      const x0 = c * tw;
      const w = Math.min(tw, this.width - x0);
      for (let r = 0; r < th; r++) {
        const from = Math.min(r, this.held - 1) * rowBytes + x0 * 4;
        const to = r * tw * 4;
        tile.set(src.subarray(from, from + w * 4), to);
        if (w < tw) {
          const last = from + (w - 1) * 4;
          const edge = src.subarray(last, last + 4);
          for (let x = w; x < tw; x++) tile.set(edge, to + x * 4);
        }
      }
      // Without alpha the tiles are encoded opaque; with it every tile gets an
      // alpha item, even an opaque one (a grid's tiles must all be alike).
      const tilePx = { data: tile, width: tw, height: th };
      const items = await encodeAvifItems(tilePx, this.quality, {
        chroma: this.chroma,
        alpha: this.alpha ? "always" : "never",
        screenTools,
        alphaScreenTools,
        pictureSide: Math.min(this.width, this.height),
      });
      if (!this.brands.length) this.brands = items.brands;
      this.tiles.push({ color: items.color, alpha: items.alpha });
    }
    this.held = 0;
  }
}

/** Whole pixels to a grid AVIF (the streaming writer fed with one band). */
export async function encodeAvifGrid(px: Pixels, quality: number, opts: AvifGridOptions = {}): Promise<Uint8Array> {
  const w = new AvifGridWriter(px.width, px.height, quality, opts);
  await w.write(px);
  return w.finish();
}
