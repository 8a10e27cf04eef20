import { avifLayout, type AvifItem, type AvifLayout } from "./items";

// What the banded AVIF reader costs in memory, decided from the container
// alone: paths.ts picks the road with it, memory-fit.ts counts it. Two roads
// share the reader: "avif-bands" (a whole frame in the heap as YUV, charged
// by the pixel) and "avif-tiles" (a grid, a row of tiles at a time, charged
// a flat figure).

/** Bytes a pixel of one item's planes as dav1d holds them (16-bit samples past 8 bits). */
function planeBytes(item: AvifItem): number {
  const sample = item.bitDepth > 8 ? 2 : 1;
  const chroma = item.monochrome ? 0 : item.subX && item.subY ? 0.5 : item.subX ? 1 : 2;
  return sample * (1 + chroma);
}

/**
 * The decoder's heap for this file, in bytes a pixel of the picture. Measured
 * in Node on 8 to 24 MP single images (heap byteLength after both decodes):
 * the planes with dav1d's padding (rows to a multiple of 128, strides to 64:
 * about 10%), plus its frame state (loop-filter levels, CDEF and restoration
 * lines, freed after each decode and reused by the next): 8-bit 4:2:0 24 MP
 * 47.7 MiB (2.1 B/px), 12 MP 25.6 MiB; 8-bit 4:4:4 12 MP 44.8 MiB; 10-bit
 * 4:2:0 24 MP 85.3 MiB; 4:0:0 12 MP 18.8 MiB. The frame state is 0.5 to 0.7
 * bytes a pixel, but for 16-bit samples in three full planes: 10-bit 4:4:4
 * 12 MP 82.7 MiB, 8.1 MP (3482 x 2322) 58.1 MiB, 0.8 to 1.1 bytes a pixel
 * past the padded planes. A grid holds one row of tiles and the frame state
 * of one tile.
 */
export function avifBandsBytesPerPixel(layout: AvifLayout): number {
  const tile = layout.tiles[0];
  const tilePixels = tile.width * tile.height;
  const alpha = layout.alphaTiles ? planeBytes(layout.alphaTiles[0]) : 0;
  const frameState = planeBytes(tile) >= 6 ? 1.1 : 0.6;
  const heap = (planeBytes(tile) + alpha) * 1.1 * tilePixels * layout.columns + frameState * tilePixels;
  return heap / (layout.width * layout.height);
}

/** What this reader adds to the decoder's heap: its start (2 MB and a 1 MB stack) and two bands of RGBA. */
export const AVIF_BANDS_FIXED_BYTES = 8 * 1024 * 1024;

/**
 * The most a file on this road may cost, in bytes a pixel: 12-bit 4:4:4
 * with a 12-bit alpha plane. Every layout dav1d decodes takes this road: the
 * lightest (8-bit 4:2:0, 2.25) and the heaviest are all far below libavif's
 * whole decode (about 22 bytes a pixel). The memory check is told each
 * file's own figure (avifBandsBytesPerPixel); this is the bound.
 */
export const AVIF_BANDS_MAX_BYTES_PER_PIXEL = (6 + 2) * 1.1 + 1.1;

/**
 * A grid's heap is one row of tiles whatever its height, so grids whose row
 * of tiles (with its alpha, and one tile's frame state) fits this take the
 * road "avif-tiles", charged this flat figure: our own grids (288 px tiles)
 * need 2.8 MiB a row at 6000 px wide (avifBandsBytesPerPixel), 512 px tiles 13 MiB at 16,000 px.
 */
export const AVIF_TILE_ROW_BYTES = 16 * 1024 * 1024;

export interface AvifFacts {
  /** The road this file takes, when our reader can take it (a single AV1 item or a grid of them; else libavif's whole road). */
  avifRoad?: "avif-bands" | "avif-tiles";
  /** The decoder's heap in bytes a pixel of the picture (avifBandsBytesPerPixel). */
  avifBandsBytesPerPixel?: number;
  /** No alpha item: no pixel can be translucent. */
  opaque?: boolean;
}

/** What paths.ts needs to choose the road, from the container alone. */
export function avifFacts(b: Uint8Array): AvifFacts {
  const layout = avifLayout(b);
  if (!layout) return {};
  const perPixel = avifBandsBytesPerPixel(layout);
  const grid = layout.rows > 1 || layout.columns > 1;
  const tiles = grid && perPixel * layout.width * layout.height <= AVIF_TILE_ROW_BYTES;
  return { avifRoad: tiles ? "avif-tiles" : "avif-bands", avifBandsBytesPerPixel: perPixel, opaque: !layout.alphaTiles };
}
