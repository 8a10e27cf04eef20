import { EngineError } from "../errors";
import { OXIPNG_PIXELS, STREAM_PIXELS, WHOLE_JPEG_ENCODE_PIXELS } from "./budget";
import type { ImageFormat } from "./types";

// A Worker isolate has 128 MB for everything, and production enforces it by
// killing the isolate (a 5xx for the caller) where local workerd does not.
// Whole-image codecs cost a measured number of bytes per pixel (README,
// "Memory"); this refuses, from the header and before any decoding, a call
// whose working set would not fit, with a 422 that says why. JPEG inputs
// over STREAM_PIXELS and JPEG outputs over WHOLE_JPEG_ENCODE_PIXELS run in
// bands of bounded size and are never refused for size.

const MiB = 1024 * 1024;

/**
 * What one image call may use. The rest of the 128 MB is the runtime, our
 * code, and WASM heaps other engines keep resident in the same isolate (they
 * never shrink: MuPDF's settles at 20-65 MB).
 */
export const IMAGE_CALL_BUDGET = 80 * MiB;

/** WASM decoder heap per pixel (jSquash builds, measured in Node). */
const DECODE_BYTES: Record<ImageFormat, number> = { jpeg: 4, png: 9, webp: 4.7, avif: 18, gif: 1, bmp: 1, tiff: 4 };
/** Encoder heap per output pixel. PNG above OXIPNG_PIXELS uses our streaming writer. */
const ENCODE_BYTES: Record<ImageFormat, number> = { jpeg: 17, png: 27, webp: 11, avif: 31, gif: 2, bmp: 3, tiff: 2 };
const RGBA = 4;
/** The banded JPEG paths: a band of about a megapixel plus MozJPEG's own heap. */
const BANDED_JPEG_BYTES = 24 * MiB;

export interface MemoryPlan {
  input: { format: ImageFormat; pixels: number };
  /** Omitted for the check before decoding when the output size is not known yet. */
  output?: { format: ImageFormat; pixels: number };
  /** True when the input is a big JPEG read in bands (never whole). */
  bandedInput: boolean;
}

export function estimateBytes(plan: MemoryPlan): number {
  const { input, output } = plan;
  const decode = plan.bandedInput ? BANDED_JPEG_BYTES : input.pixels * (DECODE_BYTES[input.format] + RGBA);
  if (!output) return decode;
  const bandedJpegOut = output.format === "jpeg" && output.pixels > WHOLE_JPEG_ENCODE_PIXELS;
  const streamingPngOut = output.format === "png" && output.pixels > OXIPNG_PIXELS;
  let encode: number;
  if (bandedJpegOut) encode = BANDED_JPEG_BYTES;
  else if (streamingPngOut) encode = output.pixels * ENCODE_BYTES.tiff;
  else encode = output.pixels * ENCODE_BYTES[output.format];
  // The output picture exists whole beside the source when it was resized from
  // a whole decode, or when banded input feeds an encoder that needs it whole.
  const wholeOutput = plan.bandedInput ? !(bandedJpegOut || streamingPngOut) : output.pixels !== input.pixels;
  return decode + encode + (wholeOutput ? output.pixels * RGBA : 0);
}

/** Throws EngineError("too_large") (422 image_too_large) when the plan cannot fit. */
export function assertFitsWorker(plan: MemoryPlan): void {
  const bytes = estimateBytes(plan);
  if (bytes <= IMAGE_CALL_BUDGET) return;
  const mp = (n: number) => (n / 1e6).toFixed(1);
  const { input, output } = plan;
  const source = `${input.format.toUpperCase()} of ${mp(input.pixels)} MP`;
  const what =
    !output || (input.format === output.format && input.pixels === output.pixels)
      ? source
      : `${source} to ${output.format.toUpperCase()} of ${mp(output.pixels)} MP`;
  throw new EngineError(
    "too_large",
    `Processing this ${what} needs about ${Math.round(bytes / MiB)} MB, more than the ${IMAGE_CALL_BUDGET / MiB} MB an image call may use in a 128 MB Worker. ` +
      "Send a smaller image, or a JPEG (large JPEGs are processed in bands).",
  );
}

/** True for inputs the engine reads in bands (see streaming.ts). */
export function isBanded(format: ImageFormat, pixels: number): boolean {
  return format === "jpeg" && pixels > STREAM_PIXELS;
}
