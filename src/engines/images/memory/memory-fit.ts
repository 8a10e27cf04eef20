import { reserveMemory } from "../../../runtime/memory";
import { EngineError } from "../../errors";
import { avifGridBytes } from "../avif/grid-writer";
import type { SinkRoad, SourceRoad } from "./paths";
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
/** Whole-image encoder heap per output pixel (AVIF: the worst seen, 148 MB for a 4 MP frame). */
const ENCODE_BYTES: Record<ImageFormat, number> = { jpeg: 17, png: 27, webp: 11, avif: 37, gif: 2, bmp: 3, tiff: 2 };
const RGBA = 4;
/**
 * The banded JPEG reader or writer: MozJPEG's heap (16 MB) and about 16 MB of
 * coefficient and pixel bands at half a megapixel a band (measured: a 24 MP
 * JPEG to PNG peaks at 51 MB live with the PNG writer's output).
 */
const BANDED_JPEG_BYTES = 32 * MiB;
/** The streaming PNG reader: a band of RGBA, two scanlines and inflate's window. */
const PNG_BANDS_BYTES = 8 * MiB;
/** The streaming PNG writer keeps only compressed rows: photos deflate to about 2 bytes a pixel. */
const PNG_ROWS_BYTES_PER_PIXEL = 2;

export interface MemoryPlan {
  input: { format: ImageFormat; pixels: number };
  source: SourceRoad;
  /** Omitted for the check before decoding when the output size is not known yet. */
  output?: { format: ImageFormat; width: number; height: number; sink: SinkRoad };
}

function sourceBytes(plan: MemoryPlan): number {
  switch (plan.source) {
    case "jpeg-bands":
      return BANDED_JPEG_BYTES;
    case "png-bands":
      return PNG_BANDS_BYTES;
    case "whole":
      return plan.input.pixels * (DECODE_BYTES[plan.input.format] + RGBA);
  }
}

function sinkBytes(output: NonNullable<MemoryPlan["output"]>): number {
  const pixels = output.width * output.height;
  switch (output.sink) {
    case "jpeg-bands":
      return BANDED_JPEG_BYTES;
    case "png-rows":
      return pixels * PNG_ROWS_BYTES_PER_PIXEL;
    case "avif-grid":
      return avifGridBytes(output.width, output.height);
    case "whole":
      return pixels * ENCODE_BYTES[output.format];
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
  if (plan.source !== "whole" && output.sink === "whole") return pixels * RGBA + Math.max(decode, sinkBytes(output));
  // A whole decode that is resized exists beside its resized copy; at its own
  // size it is encoded as it is.
  const resizedCopy = plan.source === "whole" && pixels !== input.pixels;
  return decode + sinkBytes(output) + (resizedCopy ? pixels * RGBA : 0);
}

/** Throws EngineError("too_large") (422 image_too_large) when the plan cannot fit. */
export function assertFitsWorker(plan: MemoryPlan): void {
  const bytes = estimateBytes(plan);
  if (bytes <= IMAGE_CALL_BUDGET) return;
  const mp = (n: number) => (n / 1e6).toFixed(1);
  const { input, output } = plan;
  const source = `${input.format.toUpperCase()} of ${mp(input.pixels)} MP`;
  const outPixels = output ? output.width * output.height : 0;
  const what =
    !output || (input.format === output.format && input.pixels === outPixels) ? source : `${source} to ${output.format.toUpperCase()} of ${mp(outPixels)} MP`;
  throw new EngineError(
    "too_large",
    `Processing this ${what} needs about ${Math.round(bytes / MiB)} MB, more than the ${IMAGE_CALL_BUDGET / MiB} MB an image call may use in a 128 MB Worker. ` +
      "Send a smaller image, or a JPEG or non-interlaced PNG (those are read in bands at any size).",
  );
}

/**
 * The check above, then the call's share of the isolate's memory budget
 * raised to this plan (src/runtime/memory.ts): a call that fits a Worker on
 * its own may still wait for calls running beside it.
 */
export async function fitWorker(plan: MemoryPlan): Promise<void> {
  assertFitsWorker(plan);
  await reserveMemory(estimateBytes(plan));
}
