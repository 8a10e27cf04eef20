import { AVIF_GRID_PIXELS } from "../avif/grid-writer";
import { OXIPNG_PIXELS, STREAM_PIXELS, WHOLE_JPEG_ENCODE_PIXELS } from "./budget";
import type { ImageFormat } from "../types";

// Which road a call takes, decided from the header before anything is
// decoded. One place, so the memory estimate (memory-fit.ts) and the code
// that builds sources and sinks (sources.ts, sinks.ts) can never disagree.
//
// "bands": the picture is never whole in memory (read or written a band of
// rows at a time). "whole": a WASM codec that needs the whole picture.

/** How the input is read. */
export type SourceRoad = "jpeg-bands" | "png-bands" | "whole";
/** How the output is written. */
export type SinkRoad = "jpeg-bands" | "png-rows" | "avif-grid" | "whole";

export interface InputFacts {
  format: ImageFormat;
  pixels: number;
  /** PNG: Adam7 interlacing (cannot be read in row order). */
  interlaced?: boolean;
}

export function sourceRoad(input: InputFacts): SourceRoad {
  if (input.pixels <= STREAM_PIXELS) return "whole";
  if (input.format === "jpeg") return "jpeg-bands";
  if (input.format === "png" && !input.interlaced) return "png-bands";
  return "whole";
}

/**
 * `orientation` is the EXIF orientation the output must show: JPEG carries it
 * as a tag and AVIF as irot/imir properties, so both can be written in stored
 * order; a PNG that must be turned is turned whole.
 */
export function sinkRoad(format: ImageFormat, pixels: number, orientation: number): SinkRoad {
  if (format === "jpeg" && pixels > WHOLE_JPEG_ENCODE_PIXELS) return "jpeg-bands";
  if (format === "avif" && pixels > AVIF_GRID_PIXELS) return "avif-grid";
  if (format === "png" && pixels > OXIPNG_PIXELS && orientation === 1) return "png-rows";
  return "whole";
}

/** The PNG IHDR interlace byte (0 none, 1 Adam7); the header was checked before. */
export function pngInterlaced(b: Uint8Array): boolean {
  return b.length > 28 && b[28] === 1;
}
