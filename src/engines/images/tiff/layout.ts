import type * as utif from "utif2";
import { stripLayout, subsampledYcbcr, tag } from "../codecs/tiff";

// How a TIFF's first image can be read in bands, decided from its directory
// alone (paths.ts): "strips" narrows the directory to a run of small strips
// (or rows of an uncompressed strip) for utif2; "stream" decompresses tall
// strips incrementally (our LZW, PackBits, fflate's Inflate); "tiles" decodes
// a row of tiles at a time with utif2's per-tile decoder. Anything else
// (plane-separated, JPEG or fax-coded tall strips, YCbCr stored subsampled
// outside JPEG in tiles or tall strips) is decoded whole.

/** A strip bigger than this is too coarse to hand to utif2 as a band. */
export const MAX_STRIP_PIXELS = 1 << 21;
/**
 * The decompressed bytes of one row of tiles (the tile reader's own buffer)
 * and of one tile: 256-row tiles of 8-bit RGBA (or 16-bit RGB) across a
 * 6000-pixel-wide picture fit, 512-row ones of 8-bit RGB up to 5400 pixels
 * wide. With a band of RGBA and utif2's per-tile work this stays inside what
 * the strip reader is charged (memory-fit.ts).
 */
export const MAX_TILE_ROW_BYTES = 8 * 1024 * 1024;
export const MAX_TILE_BYTES = 4 * 1024 * 1024;

const STREAMED = new Set([5, 8, 32946, 32773]);
const TILED = new Set([1, 5, 7, 8, 32946, 32773]);

export type TiffReading = "strips" | "stream" | "tiles";

/** Bits a pixel as utif2 counts them (first sample's bits times samples). */
export function bitsPerPixel(ifd: utif.IFD): number {
  return (tag(ifd, 258)?.[0] ?? 1) * (tag(ifd, 277)?.[0] ?? 1);
}

export interface TileLayout {
  tw: number;
  th: number;
  across: number;
  down: number;
  offsets: number[];
  counts: number[];
  /** Bytes of one row of a tile, of one picture row, and of the row of tiles buffer. */
  tileRowBytes: number;
  rowBytes: number;
}

export function tileLayout(ifd: utif.IFD): TileLayout | undefined {
  const [tw] = tag(ifd, 322) ?? [];
  const [th] = tag(ifd, 323) ?? [];
  const offsets = tag(ifd, 324);
  const counts = tag(ifd, 325);
  const width = tag(ifd, 256)?.[0] ?? 0;
  const height = tag(ifd, 257)?.[0] ?? 0;
  if (!tw || !th || !offsets || !counts || !width || !height) return undefined;
  const across = Math.ceil(width / tw);
  const down = Math.ceil(height / th);
  if (offsets.length < across * down || counts.length < across * down) return undefined;
  const bits = bitsPerPixel(ifd);
  return { tw, th, across, down, offsets, counts, tileRowBytes: Math.ceil((tw * bits) / 8), rowBytes: Math.ceil((width * bits) / 8) };
}

export function tiffReading(ifd: utif.IFD): TiffReading | undefined {
  const width = tag(ifd, 256)?.[0] ?? 0;
  if ((tag(ifd, 284)?.[0] ?? 1) === 2) return undefined;
  const compression = tag(ifd, 259)?.[0] ?? 1;
  if (tag(ifd, 322)) {
    const tiles = tileLayout(ifd);
    if (!tiles || !TILED.has(compression) || subsampledYcbcr(ifd)) return undefined;
    const tileBytes = Math.ceil((tiles.tw * tiles.th * bitsPerPixel(ifd)) / 8);
    return tiles.rowBytes * tiles.th <= MAX_TILE_ROW_BYTES && tileBytes <= MAX_TILE_BYTES ? "tiles" : undefined;
  }
  const strips = stripLayout(ifd);
  if (!strips) return undefined;
  // A single compressed strip cannot be narrowed (its rows are not at known offsets): it is streamed whatever its size.
  if (compression === 1 || (strips.offsets.length > 1 && strips.rps * width <= MAX_STRIP_PIXELS)) return "strips";
  return STREAMED.has(compression) && !subsampledYcbcr(ifd) ? "stream" : undefined;
}
