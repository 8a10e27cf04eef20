import { reserveMemory } from "../../../runtime/memory";
import { EngineError } from "../../errors";
import { avifFrameBytes, avifGridBytes } from "../avif/grid-writer";
import { AVIF_BANDS_FIXED_BYTES, AVIF_BANDS_MAX_BYTES_PER_PIXEL, AVIF_TILE_ROW_BYTES } from "../avif/decoder/cost";
import { bmpFileSize } from "../codecs/bmp";
import type { SinkRoad, SourceRoad } from "./paths";
import { memoryProbe } from "./probe";
import { UPRIGHT_PASS_PIXELS } from "./upright-source";
import { WEBP_ALPHA_PIXELS, WEBP_BAND_HEAP_CAP, WEBP_TOKENS_PIXELS } from "../webp/band-writer";
import type { ImageFormat } from "../types";

// A Worker isolate has 128 MB for everything, and production enforces it by
// killing the isolate (a 5xx for the caller) where local workerd does not.
// Whole-image codecs cost a measured number of bytes per pixel (README,
// "Memory"); this refuses, from the header and before any decoding, a call
// whose working set would not fit, with a 422 that says why. The roads that
// read or write in bands (paths.ts) cost a bounded amount whatever the size.

const MiB = 1024 * 1024;

/**
 * What one image call may use. The rest of the 128 MB is the runtime, our
 * code, and WASM heaps other engines keep resident in the same isolate (they
 * never shrink: MuPDF's settles at 20-65 MB).
 */
export const IMAGE_CALL_BUDGET = 80 * MiB;

/**
 * Decoder working memory per pixel besides the RGBA result (jSquash WASM
 * heaps measured in Node; PNG is our reader, whose whole-image road is an
 * interlaced file: its Adam7 passes are assembled into one more RGBA copy).
 */
const DECODE_BYTES: Record<ImageFormat, number> = { jpeg: 4, png: 4, webp: 4.7, avif: 18, gif: 1, bmp: 1, tiff: 4 };
/** Whole-image encoder heap per output pixel (AVIF's one frame is grid-writer.ts's avifFrameBytes). */
const ENCODE_BYTES: Record<Exclude<ImageFormat, "avif">, number> = { jpeg: 17, png: 27, webp: 11, gif: 2, bmp: 3, tiff: 2 };
/**
 * One AVIF frame is encoded after every codec heap is dropped
 * (codecs/encode.ts), so a whole decode whose working memory is a codec heap
 * (jSquash's MozJPEG, libwebp and libavif, not our JavaScript readers) never
 * coexists with aom's: only the larger counts, beside the RGBA.
 */
const DECODE_IN_CODEC_HEAP: Partial<Record<ImageFormat, true>> = { jpeg: true, webp: true, avif: true };
const RGBA = 4;
/**
 * The banded JPEG writer: MozJPEG's heap (16 MB) and about 16 MB of
 * coefficient and pixel bands at half a megapixel a band.
 */
const BANDED_JPEG_BYTES = 32 * MiB;
/**
 * The banded JPEG reader: a 16 MB codec heap and about 7 MB of bands
 * (measured in Node on a grainy 24 MP photo: 23.3 MB live besides the
 * output's buffer when writing BMP).
 */
const JPEG_READER_BYTES = 24 * MiB;
/**
 * The streaming PNG reader: a band of RGBA, two scanlines and inflate's
 * window, and the bands the resampler and the sink are still holding. Live
 * memory besides the output's, measured on a grainy 24 MP PNG (Node, GC at
 * every band): 28-32 MB, more than the parts add up to (freed band buffers
 * are returned to the system after the collection that frees them).
 */
const PNG_BANDS_BYTES = 24 * MiB;
/** The streaming PNG writer keeps only compressed rows: photos deflate to about 2 bytes a pixel. */
const PNG_ROWS_BYTES_PER_PIXEL = 2;
/**
 * Our BMP and GIF readers: bands of RGBA as above (an interlaced GIF adds its
 * index plane, counted apart); TIFF adds a run of decoded strips. Measured besides the
 * output: 6-23 MB on 24 MP inputs.
 */
const ROW_READER_BYTES = 16 * MiB;
const TIFF_STRIPS_READER_BYTES = 24 * MiB;
/**
 * A tiled TIFF, a row of tiles at a time: that row as stored and one tile
 * (tiff/layout.ts caps them at 8 and 4 MiB), a band of RGBA and utif2's
 * per-tile work, no more than a run of strips. Measured on grainy photos in
 * 256-pixel LZW tiles: 16.6 MP to BMP peaked 8.5 MiB over the file's 47.5.
 */
const TIFF_TILES_READER_BYTES = TIFF_STRIPS_READER_BYTES;
/**
 * GIF output: one palette index a pixel, and the LZW stream in a buffer
 * sized up front at 0.75 bytes a pixel; plus the histogram and the remapper's
 * error rows (measured on a grainy 24 MP photo: 17 MB of file, 56-61 MB live
 * from a PNG or JPEG).
 */
const GIF_INDICES_BYTES_PER_PIXEL = 2;
const GIF_WRITER_BYTES = 8 * MiB;
/**
 * TIFF output: the compressed strips, handed to storage as they are (no
 * joined copy): Deflate with the predictor made 2.0 bytes a pixel of the same
 * grainy photo; plus one raw strip and zlib's state.
 */
const TIFF_STRIPS_BYTES_PER_PIXEL = 2;
const TIFF_WRITER_BYTES = 8 * MiB;
/**
 * BMP output: the file itself, allocated at its final size, and the bands in
 * flight (measured: a 19.5 MP JPEG or PNG to BMP peaked 30-31 MiB over the
 * file's 56 MiB).
 */
const BMP_WRITER_BYTES = 8 * MiB;
/**
 * Our WebP band reader (webp/band-source.ts), measured: its heap is the
 * compressed file and a window of rows (4.8 MiB for a 6 MP photo), plus two
 * bands of RGBA on the JS side. An ALPH plane adds libwebp's whole-picture
 * alpha decode: 6.6 bytes a pixel of heap (6 MP: 43.5 MiB).
 */
const WEBP_BANDS_BYTES = 12 * MiB;
const WEBP_ALPHA_READ_BYTES_PER_PIXEL = 6.6;
/**
 * A lossless WebP on the same reader: our patched libwebp decoder keeps, at
 * any size, a sliding window of ARGB pixels (about 1.6 M: 6-6.7 MiB), a
 * window of the file's data (twice what 16 rows can read: 1.5 MiB at 6000
 * pixels wide, 3.9 at the widest) and its prefix code tables (measured
 * 2.2-2.5 MiB on photos). Measured: a 24 MP grainy photo's heap 14.3 MiB,
 * against the lossy reader's 4.8. A file of pure noise can have tens of MiB
 * of prefix codes; the heap cap stops those (422 image_too_large).
 */
const WEBP_LOSSLESS_BYTES = 14 * MiB;
/**
 * Our WebP planes writer (webp/band-writer.ts), measured heaps: while rows
 * arrive, the YUV 4:2:0 planes (1.5 bytes a pixel; an alpha plane adds 1
 * up to the size transparency is written at) and a band; then libwebp's
 * encoder, with the reader's heaps dropped: 4.4 bytes a pixel in all with its
 * token buffer (12 MP of heavy grain: 53 MiB; past 24 MiB of token pages
 * the rest go into rows already encoded, so 24 MP takes 66 MiB). Its heap
 * is capped at build time (72 MiB; past it the encoder falls back to
 * low-memory mode), which
 * bounds big pictures (the writer refuses those past WEBP_PLANES_MAX_PIXELS,
 * where even the low-memory encoder would not fit under it). Plus the
 * output, copied out of the heap (under 0.2 bytes a pixel).
 */
const WEBP_FILL_BYTES_PER_PIXEL = 1.5;
const WEBP_FILL_BYTES = 4 * MiB;
/**
 * Up to the size the writer takes transparency at, an alpha plane may fill
 * beside the planes (1 byte a pixel), unless the header said no pixel can be
 * translucent.
 */
const webpFillBytes = (pixels: number, opaque = false) =>
  pixels * (WEBP_FILL_BYTES_PER_PIXEL + (!opaque && pixels <= WEBP_ALPHA_PIXELS ? 1 : 0)) + WEBP_FILL_BYTES;
const webpEncodeBytes = (pixels: number) =>
  (pixels > WEBP_TOKENS_PIXELS ? WEBP_BAND_HEAP_CAP : Math.min(WEBP_BAND_HEAP_CAP, pixels * 4.6 + WEBP_FILL_BYTES)) + pixels * 0.2;

export interface MemoryPlan {
  /** `indexPlane`: the reader holds one palette index a pixel (an interlaced GIF frame, an RLE bitmap). */
  input: { format: ImageFormat; pixels: number; indexPlane?: boolean; webpAlpha?: boolean; avifBandsBytesPerPixel?: number; opaque?: boolean };
  source: SourceRoad;
  /** Omitted for the check before decoding when the output size is not known yet. */
  /** `turned`: rows reach the writer through UprightSource (one band of upright rows gathered per pass). */
  output?: { format: ImageFormat; width: number; height: number; sink: SinkRoad; turned?: boolean };
}

function sourceBytes(plan: MemoryPlan): number {
  switch (plan.source) {
    case "jpeg-bands":
      return JPEG_READER_BYTES;
    case "png-bands":
      return PNG_BANDS_BYTES;
    case "bmp-bands":
    case "gif-bands":
      return ROW_READER_BYTES + (plan.input.indexPlane ? plan.input.pixels : 0);
    case "tiff-bands":
      return TIFF_STRIPS_READER_BYTES;
    case "tiff-tiles":
      return TIFF_TILES_READER_BYTES;
    case "webp-bands":
      return WEBP_BANDS_BYTES + (plan.input.webpAlpha ? plan.input.pixels * WEBP_ALPHA_READ_BYTES_PER_PIXEL : 0);
    case "webp-lossless-bands":
      return WEBP_BANDS_BYTES + WEBP_LOSSLESS_BYTES;
    case "avif-bands":
      // dav1d's YUV planes and frame state, measured (avif/decoder/cost.ts); the road's bound when the file's own figure is not given.
      return AVIF_BANDS_FIXED_BYTES + plan.input.pixels * (plan.input.avifBandsBytesPerPixel ?? AVIF_BANDS_MAX_BYTES_PER_PIXEL);
    case "avif-tiles":
      // A grid, a row of tiles at a time: what cost.ts admits on this road.
      return AVIF_BANDS_FIXED_BYTES + AVIF_TILE_ROW_BYTES;
    case "whole":
      return plan.input.pixels * (DECODE_BYTES[plan.input.format] + RGBA);
  }
}

function sinkBytes(output: NonNullable<MemoryPlan["output"]>): number {
  return (output.turned ? UPRIGHT_PASS_PIXELS * RGBA : 0) + writerBytes(output);
}

function writerBytes(output: NonNullable<MemoryPlan["output"]>): number {
  const pixels = output.width * output.height;
  switch (output.sink) {
    case "jpeg-bands":
      return BANDED_JPEG_BYTES;
    case "png-rows":
      return pixels * PNG_ROWS_BYTES_PER_PIXEL;
    case "avif-grid":
      return avifGridBytes(output.width, output.height);
    case "bmp-rows":
      return BMP_WRITER_BYTES + bmpFileSize(output.width, output.height);
    case "gif-indices":
      return GIF_WRITER_BYTES + pixels * GIF_INDICES_BYTES_PER_PIXEL;
    case "tiff-strips":
      return TIFF_WRITER_BYTES + pixels * TIFF_STRIPS_BYTES_PER_PIXEL;
    case "webp-planes":
      return webpEncodeBytes(pixels);
    case "whole":
      return output.format === "avif" ? avifFrameBytes(output.width, output.height) : pixels * ENCODE_BYTES[output.format];
  }
}

export function estimateBytes(plan: MemoryPlan): number {
  const decode = sourceBytes(plan);
  const { input, output } = plan;
  if (!output) return decode;
  const pixels = output.width * output.height;
  // Bands collected for a whole-image encoder: the picture exists whole, and
  // the reader's heaps are dropped before the encoder starts (sinks.ts), so
  // only the larger of the two phases counts.
  // What a band reader keeps to the end whatever is dropped: an interlaced GIF's
  // or an RLE bitmap's index plane (measured: a 24 MP GIF to WebP peaked 19 MiB over
  // the two phases when this was left out).
  const held = input.indexPlane ? input.pixels : 0;
  if (plan.source !== "whole" && output.sink === "whole") return pixels * RGBA + Math.max(decode, held + sinkBytes(output));
  // The WebP planes fill beside the reader, then libwebp encodes them once
  // the reader's heaps are dropped (webp/band-writer.ts): two phases again.
  if (plan.source !== "whole" && output.sink === "webp-planes") {
    return Math.max(decode + webpFillBytes(pixels, input.opaque), held + sinkBytes(output));
  }
  // A whole decode that is resized exists beside its resized copy; at its own
  // size it is encoded as it is.
  const resizedCopy = plan.source === "whole" && pixels !== input.pixels ? pixels * RGBA : 0;
  if (plan.source === "whole" && output.sink === "whole" && output.format === "avif" && DECODE_IN_CODEC_HEAP[input.format]) {
    return input.pixels * RGBA + Math.max(input.pixels * DECODE_BYTES[input.format], sinkBytes(output)) + resizedCopy;
  }
  return decode + sinkBytes(output) + resizedCopy;
}

/** The plan with the output (and, when `withInput`, the input) scaled by a factor in pixels, aspect kept. */
function scaled(plan: MemoryPlan, factor: number, withInput: boolean): MemoryPlan {
  const side = Math.sqrt(factor);
  const { input, output } = plan;
  return {
    ...plan,
    input: withInput ? { ...input, pixels: Math.floor(input.pixels * factor) } : input,
    output: output && { ...output, width: Math.max(1, Math.floor(output.width * side)), height: Math.max(1, Math.floor(output.height * side)) },
  };
}

/**
 * The largest size, in pixels, for which this plan (same formats and roads)
 * fits the call budget: of the output when it differs from the input (a
 * resize: the input is what it is), else of the picture.
 */
export function largestFitting(plan: MemoryPlan): number {
  const out = plan.output ? plan.output.width * plan.output.height : 0;
  const resized = !!plan.output && out !== plan.input.pixels;
  const fits = (factor: number) => estimateBytes(scaled(plan, factor, !resized)) <= IMAGE_CALL_BUDGET;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  // Not every estimate grows with the size: a grid's tiles follow the
  // picture's sides, and aom's heap the tiles, so a slightly smaller picture
  // can need more. The figure named is one below which every size sampled
  // (steps of 1/8 % down to half) fits too.
  const STEPS = 400;
  let safe = lo;
  for (let i = 1; i <= STEPS; i++) {
    const factor = lo * (1 - i / (2 * STEPS));
    if (!fits(factor)) safe = lo * (1 - (i + 1) / (2 * STEPS));
  }
  return Math.floor((resized ? out : plan.input.pixels) * safe);
}

/** Throws EngineError("too_large") (422 image_too_large) when the plan cannot fit, naming the largest size that would. */
export function assertFitsWorker(plan: MemoryPlan): void {
  const bytes = estimateBytes(plan);
  if (bytes <= IMAGE_CALL_BUDGET) return;
  const mp = (n: number) => (n / 1e6).toFixed(1);
  const { input, output } = plan;
  const source = `${input.format.toUpperCase()} of ${mp(input.pixels)} MP`;
  const outPixels = output ? output.width * output.height : 0;
  const what =
    !output || (input.format === output.format && input.pixels === outPixels) ? source : `${source} to ${output.format.toUpperCase()} of ${mp(outPixels)} MP`;
  // Roads are chosen by size, so the figure is for this road: a smaller picture may take a lighter one and fit more.
  const largest = largestFitting(plan);
  const resized = !!output && outPixels !== input.pixels;
  throw new EngineError(
    "too_large",
    `Processing this ${what} needs about ${Math.round(bytes / MiB)} MB, more than the ${IMAGE_CALL_BUDGET / MiB} MB an image call may use in a 128 MB Worker; ` +
      `the largest ${resized ? "output" : "picture"} that fits this way is about ${mp(largest)} MP. ${resized ? "Ask for a smaller size." : "Send a smaller image."}`,
  );
}

/**
 * One AVIF frame (sinkRoad's choice up to AVIF_GRID_PIXELS) is the heaviest
 * whole-image encoder; where it would not fit beside its source, a grid of
 * tiles does the same picture in bounded memory.
 */
function withAvifRoad(plan: MemoryPlan): MemoryPlan {
  const { output } = plan;
  if (output?.format !== "avif" || output.sink !== "whole" || estimateBytes(plan) <= IMAGE_CALL_BUDGET) return plan;
  const grid: MemoryPlan = { ...plan, output: { ...output, sink: "avif-grid" } };
  return estimateBytes(grid) < estimateBytes(plan) ? grid : plan;
}

/**
 * The check above, then the call's share of the isolate's memory budget
 * raised to this plan (src/runtime/memory.ts): a call that fits a Worker on
 * its own may still wait for calls running beside it. Returns the plan
 * admitted, whose output road the call must take (withAvifRoad may change it).
 */
export async function fitWorker(plan: MemoryPlan): Promise<MemoryPlan> {
  const admitted = withAvifRoad(plan);
  assertFitsWorker(admitted);
  memoryProbe.planned(estimateBytes(admitted));
  await reserveMemory(estimateBytes(admitted));
  return admitted;
}
