import { EngineError } from "../../../errors";
import type { BandSource, PixelBand } from "../../memory/bands";
import { memoryProbe } from "../../memory/probe";
import { av1Message, closeAv1Dec, openAv1Dec, type Av1Dec } from "./av1-dec";
import type { InstanceTicket } from "../../codecs/per-call-instance";
import type { AvifItem, AvifLayout } from "./items";
import { alphaScale, coefficientsOf, RowConverter, type Picture } from "./yuv-rows";

// An AVIF read as bands of RGBA rows: dav1d (wasm/av1-dec/) decodes the
// primary item, and its alpha item if any, into YUV planes that stay in the
// WASM heap, and rows are converted to RGBA a band at a time (yuv-rows.ts).
// The picture is held as YUV, 1.5 bytes a pixel for 8-bit 4:2:0, where
// libavif's whole road holds the RGBA result besides its own planes (about
// 18 bytes a pixel in all). A grid is decoded a row of tiles at a time, so
// only that row is ever in the heap.

const corrupt = (why: string) => new EngineError("corrupt", `The AVIF could not be decoded: ${why}.`);

/** Alpha tiles' slots follow the colour tiles' (wasm/av1-dec/av1-dec.c: 256 columns at most). */
const ALPHA_SLOTS = 256;

function pictureOf(m: Av1Dec, slot: number, matrixFallback?: { matrix: number; fullRange: boolean }): Picture {
  const info = (k: number) => m._dec_info(slot, k);
  const bitDepth = info(2);
  const layout = info(3);
  const wide = bitDepth > 8;
  const heap = m.HEAPU8.buffer;
  const width = info(0);
  const height = info(1);
  const yStride = info(4);
  const cStride = info(5);
  const cw = layout === 1 || layout === 2 ? (width + 1) >> 1 : width;
  const ch = layout === 1 ? (height + 1) >> 1 : height;
  const view = (plane: number, stride: number, rows: number, cols: number) => {
    const at = m._dec_plane(slot, plane);
    const bytes = (rows - 1) * stride + cols * (wide ? 2 : 1);
    return wide ? new Uint16Array(heap, at, bytes >> 1) : new Uint8Array(heap, at, bytes);
  };
  const mono = layout === 0;
  return {
    width,
    height,
    bitDepth,
    layout,
    y: view(0, yStride, height, width),
    u: mono ? undefined : view(1, cStride, ch, cw),
    v: mono ? undefined : view(2, cStride, ch, cw),
    yStride: wide ? yStride >> 1 : yStride,
    cStride: wide ? cStride >> 1 : cStride,
    matrix: matrixFallback?.matrix ?? info(6),
    fullRange: matrixFallback?.fullRange ?? info(7) === 1,
  };
}

function decodeItem(m: Av1Dec, slot: number, item: AvifItem): void {
  const at = m._dec_input(item.data.length);
  if (!at) throw new Error(`AVIF decode failed: ${av1Message(m)}.`);
  m.HEAPU8.set(item.data, at);
  // A frame larger than the container says is refused before dav1d allocates it.
  if (!m._dec_decode(slot, item.width * item.height)) throw corrupt(av1Message(m));
  if (m._dec_info(slot, 0) !== item.width || m._dec_info(slot, 1) !== item.height) throw corrupt("a frame's size differs from the container's");
}

/** One decoded tile, ready to give rows. */
interface Tile {
  rows: RowConverter;
  x: number;
  /** Columns of the tile inside the picture (the last column's tiles are cropped). */
  width: number;
}

export class AvifBandSource implements BandSource {
  readonly width: number;
  readonly height: number;
  readonly mayHaveAlpha: boolean;
  readonly grey: boolean;

  constructor(private readonly layout: AvifLayout) {
    this.width = layout.width;
    this.height = layout.height;
    this.mayHaveAlpha = !!layout.alphaTiles;
    this.grey = layout.tiles[0].monochrome;
  }

  /** Decodes row `r` of tiles (and alpha tiles) into the heap; the previous row's are freed first. */
  private decodeRow(m: Av1Dec, r: number): Tile[] {
    const { layout } = this;
    const out: Tile[] = [];
    for (let c = 0; c < layout.columns; c++) {
      m._dec_free(c);
      m._dec_free(ALPHA_SLOTS + c);
    }
    for (let c = 0; c < layout.columns; c++) {
      const i = r * layout.columns + c;
      decodeItem(m, c, layout.tiles[i]);
      const alphaTile = layout.alphaTiles?.[i];
      if (alphaTile) decodeItem(m, ALPHA_SLOTS + c, alphaTile);
    }
    memoryProbe.sample();
    // Views into the heap: taken after the row's decodes, when it has stopped growing.
    for (let c = 0; c < layout.columns; c++) {
      const color = pictureOf(m, c, layout.nclx);
      const alphaPic = layout.alphaTiles ? pictureOf(m, ALPHA_SLOTS + c) : undefined;
      const alpha = alphaPic && { pic: alphaPic, ...toAlpha(alphaScale(alphaPic.bitDepth, alphaPic.fullRange)) };
      const x = c * layout.tiles[0].width;
      const rows = new RowConverter(color, coefficientsOf(color.bitDepth, color.matrix, color.fullRange), alpha);
      out.push({ rows, x, width: Math.min(color.width, this.width - x) });
    }
    return out;
  }

  /** Passes still to come over this source (readFor), and the instance and single frame kept between them. */
  private passesLeft = 1;
  private held?: { m: Av1Dec; ticket: InstanceTicket; frame?: Tile[] };

  readFor(passes: number): void {
    this.passesLeft = passes;
  }

  async *bands(targetPixels = 1 << 19): AsyncGenerator<PixelBand> {
    this.held ??= await openAv1Dec();
    const held = this.held;
    const { m, ticket } = held;
    const { width, height, layout } = this;
    const tileHeight = layout.tiles[0].height;
    const step = Math.max(1, Math.floor(targetPixels / width));
    // One frame is decoded once for every pass; a grid's rows of tiles are decoded again each pass.
    const single = layout.rows === 1 && layout.columns === 1;
    try {
      for (let r = 0; r < layout.rows; r++) {
        const tiles = (single && held.frame) || this.decodeRow(m, r);
        if (single) held.frame = tiles;
        const top = r * tileHeight;
        const bottom = Math.min(height, top + tileHeight);
        for (let y = top; y < bottom; y += step) {
          const h = Math.min(step, bottom - y);
          yield { y, pixels: { data: joinTiles(tiles, width, y - top, h), width, height: h } };
        }
      }
    } finally {
      if (--this.passesLeft <= 0) {
        closeAv1Dec(m, ticket);
        this.held = undefined;
      }
    }
  }
}

/** Rows y0..y0+h of a row of tiles, side by side and cropped to the picture's width. */
function joinTiles(tiles: Tile[], width: number, y0: number, h: number): Uint8ClampedArray {
  if (tiles.length === 1 && tiles[0].width === width) return tiles[0].rows.rgba(y0, y0 + h);
  const out = new Uint8ClampedArray(width * h * 4);
  for (const t of tiles) {
    const rgba = t.rows.rgba(y0, y0 + h);
    const tw = t.rows.width;
    for (let y = 0; y < h; y++) out.set(rgba.subarray(y * tw * 4, (y * tw + t.width) * 4), (y * width + t.x) * 4);
  }
  return out;
}

const toAlpha = ([off, scale]: [number, number]) => ({ off, scale });
