import type { FileBytes } from "../../bytes";
import type { CoefBand } from "../jpeg/band";
import type { FrameGeometry } from "../jpeg/frame";
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
  /**
   * Present on a source that can be read again: it will be read `passes`
   * times in a row (a GIF's palette, then its indices; a turned picture's
   * upright passes) and keeps its decoder, and what it decoded, until the
   * last. Re-opening instead would put a second WASM instance beside the
   * first: a dropped WASM memory is freed only when the garbage collector next runs.
   */
  readFor?(passes: number): void;
  /**
   * Present on a JPEG source: the file's own Y, Cb and Cr as quantised
   * coefficients, when it is 4:2:0 or 4:2:2 YCbCr (null otherwise), for a
   * sink that takes them without RGB in between (writeYcbcr).
   */
  ycbcrCoefficients?(): YcbcrCoefficients | null;
}

/** A 4:2:0 or 4:2:2 YCbCr JPEG's coefficients, read in bands of MCU rows (jpeg/band-source.ts). */
export interface YcbcrCoefficients {
  g: FrameGeometry;
  /** Quantisation steps of components 0, 1 and 2 (Y, Cb, Cr), in zig-zag order like the coefficients. */
  steps: Uint16Array[];
  /** Bands of about `targetPixels` pixels, in order, covering every MCU row once. */
  bands(targetPixels: number): Iterable<CoefBand>;
}

export interface RowSink<Out extends FileBytes = FileBytes> {
  /** Accepts rows in order, any number at a time; `rows.width` is the sink's width. */
  write(rows: Pixels): Promise<void>;
  /**
   * Sinks that must see the whole picture before writing it (a GIF's palette)
   * take every row `passes` times; `endPass` marks the end of each pass but the last.
   */
  readonly passes?: number;
  endPass?(): void;
  /**
   * Present on a sink that can take a JPEG's YCbCr coefficients instead of
   * rows (the WebP planes writer): true when it took the whole picture so,
   * false when it declined before taking anything (the caller then writes rows).
   */
  writeYcbcr?(source: YcbcrCoefficients): Promise<boolean>;
  /** The encoded file, once every row has been written (big ones in pieces, see engines/bytes.ts). */
  finish(): Promise<Out>;
}

/**
 * Bands of about `targetPixels` (at least one row) over a picture whose RGBA
 * rows y0..y1 `rowsOf` makes on demand: the loop every row-addressable source shares.
 */
export async function* rowBands(
  width: number,
  height: number,
  targetPixels: number,
  rowsOf: (y0: number, y1: number) => Pixels["data"],
): AsyncIterable<PixelBand> {
  const rows = Math.max(1, Math.floor(targetPixels / width));
  for (let y = 0; y < height; y += rows) {
    const h = Math.min(rows, height - y);
    yield { y, pixels: { data: rowsOf(y, y + h), width, height: h } };
  }
}

/** Whole pixels seen as a band source (views, no copies), for paths that accept any source. */
export function pixelsSource(px: Pixels): BandSource {
  const rowBytes = px.width * 4;
  return {
    width: px.width,
    height: px.height,
    bands: (targetPixels = 1 << 20) => rowBands(px.width, px.height, targetPixels, (y0, y1) => px.data.subarray(y0 * rowBytes, y1 * rowBytes)),
  };
}
