import { AVIF_GRID_PIXELS } from "../avif/grid-writer";
import { OXIPNG_PIXELS, STREAM_PIXELS, WHOLE_JPEG_ENCODE_PIXELS } from "./budget";
import { tiffRoad } from "../tiff/band-source";
import { bmpIsRle } from "../codecs/bmp";
import { gifInterlaced } from "../codecs/gif";
import { webpLayout } from "../webp/band-source";
import { avifFacts } from "../avif/decoder/cost";
import type { ImageFormat, ImageHeader } from "../types";

// Which road a call takes, decided from the header before anything is
// decoded. One place, so the memory estimate (memory-fit.ts) and the code
// that builds sources and sinks (sources.ts, sinks.ts) can never disagree.
//
// "bands": the picture is never whole in memory (read or written a band of
// rows at a time). "whole": a WASM codec that needs the whole picture.

/** How the input is read. */
export type SourceRoad =
  | "jpeg-bands"
  | "png-bands"
  | "bmp-bands"
  | "gif-bands"
  | "tiff-bands"
  | "tiff-tiles"
  | "webp-bands"
  | "webp-lossless-bands"
  | "avif-bands"
  | "avif-tiles"
  | "whole";
/**
 * How the output is written. "bmp-rows": into the file's own buffer, each
 * pixel at its upright place; "gif-indices": two passes (palette, then one
 * index a pixel, upright); "tiff-strips": strips compressed as rows come;
 * "webp-planes": into libwebp's YUV planes, upright.
 */
export type SinkRoad = "jpeg-bands" | "png-rows" | "avif-grid" | "bmp-rows" | "gif-indices" | "tiff-strips" | "webp-planes" | "whole";

export interface InputFacts {
  format: ImageFormat;
  pixels: number;
  /** PNG: Adam7 interlacing (cannot be read in row order). */
  interlaced?: boolean;
  /** TIFF: read in bands (strips or a streamed tall strip: "tiff-bands"; a row of tiles at a time: "tiff-tiles"), tiff/layout.ts. */
  tiffRoad?: "tiff-bands" | "tiff-tiles";
  /** Its reader holds one palette index a pixel (an interlaced GIF frame, an RLE bitmap). */
  indexPlane?: boolean;
  /** WebP: a lossy still (VP8), which can be read in bands; and whether it has an alpha plane. */
  webpLossy?: boolean;
  webpAlpha?: boolean;
  /** WebP: a lossless still (VP8L), read in bands through the decoder's sliding window (its own road: a flat cost, webp/band-source.ts). */
  webpLossless?: boolean;
  /** AVIF: the road our dav1d reader takes it on (avif/decoder/cost.ts), and its decoder heap in bytes a pixel. */
  avifRoad?: "avif-bands" | "avif-tiles";
  avifBandsBytesPerPixel?: number;
  /** No pixel can be translucent, known from the header: a JPEG, a lossy WebP without ALPH, an AVIF without an alpha item. */
  opaque?: boolean;
}

export function sourceRoad(input: InputFacts): SourceRoad {
  if (input.pixels <= STREAM_PIXELS) return "whole";
  if (input.format === "jpeg") return "jpeg-bands";
  if (input.format === "png" && !input.interlaced) return "png-bands";
  if (input.format === "bmp") return "bmp-bands";
  if (input.format === "gif") return "gif-bands";
  if (input.format === "tiff" && input.tiffRoad) return input.tiffRoad;
  if (input.format === "webp" && input.webpLossy) return "webp-bands";
  if (input.format === "webp" && input.webpLossless) return "webp-lossless-bands";
  if (input.format === "avif" && input.avifRoad) return input.avifRoad;
  return "whole";
}

/**
 * The writer for `pixels` of `format`. A turned picture (EXIF orientation)
 * needs nothing different here: JPEG carries the orientation as a tag, AVIF as
 * irot/imir, the BMP, GIF and WebP writers place rows upright as they come,
 * and PNG and TIFF get upright rows (turnsRows).
 */
export function sinkRoad(format: ImageFormat, pixels: number): SinkRoad {
  if (format === "jpeg" && pixels > WHOLE_JPEG_ENCODE_PIXELS) return "jpeg-bands";
  if (format === "avif" && pixels > AVIF_GRID_PIXELS) return "avif-grid";
  if (format === "png" && pixels > OXIPNG_PIXELS) return "png-rows";
  if (pixels > STREAM_PIXELS && format === "bmp") return "bmp-rows";
  if (pixels > STREAM_PIXELS && format === "gif") return "gif-indices";
  if (pixels > STREAM_PIXELS && format === "tiff") return "tiff-strips";
  if (pixels > STREAM_PIXELS && format === "webp") return "webp-planes";
  return "whole";
}

/** The facts sourceRoad needs, read from the file's header (and a TIFF's directory). */
export function inputFacts(input: Uint8Array, header: ImageHeader): InputFacts {
  return {
    format: header.format,
    pixels: header.width * header.height,
    interlaced: header.format === "png" && pngInterlaced(input),
    tiffRoad: header.format === "tiff" ? tiffRoad(input) : undefined,
    indexPlane: (header.format === "gif" && gifInterlaced(input)) || (header.format === "bmp" && bmpIsRle(input)),
    ...(header.format === "webp" ? webpFacts(input) : {}),
    ...(header.format === "avif" ? avifFacts(input) : {}),
    ...(header.format === "jpeg" ? { opaque: true } : {}),
  };
}

/**
 * Writers that take rows top to bottom as shown and cannot record an
 * orientation: a turned input reaches them through UprightSource (one pass
 * over the input per band of upright rows).
 */
export function turnsRows(sink: SinkRoad): boolean {
  return sink === "png-rows" || sink === "tiff-strips";
}

/** The PNG IHDR interlace byte (0 none, 1 Adam7); the header was checked before. */
export function pngInterlaced(b: Uint8Array): boolean {
  return b.length > 28 && b[28] === 1;
}

function webpFacts(input: Uint8Array): Pick<InputFacts, "webpLossy" | "webpAlpha" | "webpLossless" | "opaque"> {
  const layout = webpLayout(input);
  return { webpLossy: layout.lossy, webpAlpha: layout.alpha, webpLossless: layout.lossless, opaque: layout.lossy && !layout.alpha };
}
