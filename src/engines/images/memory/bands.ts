import type { Pixels } from "../types";

// The two ends of every bounded-memory path: a source that yields an image as
// horizontal bands of RGBA rows, top to bottom, and a sink that takes rows in
// the same order and writes a file. A pipeline never holds more than a band
// (plus whatever a resizer or an encoder needs for its own window), so image
// size stops mattering to memory.

export interface PixelBand {
  /** First image row of the band. */
  y: number;
  pixels: Pixels;
}

export interface BandSource {
  readonly width: number;
  readonly height: number;
  /** Bands of about `targetPixels` pixels each (at least one row), in order, covering every row once. */
  bands(targetPixels?: number): AsyncIterable<PixelBand>;
}

export interface RowSink {
  /** Accepts rows in order, any number at a time; `rows.width` is the sink's width. */
  write(rows: Pixels): Promise<void>;
  /** The encoded file, once every row has been written. */
  finish(): Promise<Uint8Array>;
}

/** Whole pixels seen as a band source (views, no copies), for paths that accept any source. */
export function pixelsSource(px: Pixels): BandSource {
  return {
    width: px.width,
    height: px.height,
    async *bands(targetPixels = 1 << 20) {
      const rows = Math.max(1, Math.floor(targetPixels / px.width));
      const rowBytes = px.width * 4;
      for (let y = 0; y < px.height; y += rows) {
        const h = Math.min(rows, px.height - y);
        yield { y, pixels: { data: px.data.subarray(y * rowBytes, (y + h) * rowBytes), width: px.width, height: h } };
      }
    },
  };
}
