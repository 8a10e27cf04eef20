import { HEAP_TRIM_BYTES } from "./memory/budget";
import { trimCodecHeaps } from "./codecs/emscripten";
import { compressImage as compress } from "./operations/compress";
import { convertImage as convert } from "./operations/convert";
import { greyPlane as plane } from "./operations/grey-plane";
import { resizeImage as resize, type ResizeRequest } from "./operations/resize-image";
import type { ImageResult } from "./operations/result";
import type { ImageFormat, ImageHeader, Pixels } from "./types";
import { decodeImage, hasAlpha, upright } from "./codecs/decode";
import { readHeader } from "./formats/header";
import { checkedJpeg } from "./jpeg/decode-file";
import { parseJpeg } from "./jpeg/markers";

// The image engine's one entry point: code outside this folder imports from
// here only. Pure functions over bytes; behind them, by job:
//
//   operations/  what callers ask for: compress, convert, resize, and the result they answer
//   memory/      memory planning: byte budgets, the fit check, which road (whole or banded)
//                a call takes, the band sources and row sinks of the banded roads
//   formats/     reading containers without decoding: sniffing, headers, ISO-BMFF, AVIF and
//                WebP container facts, EXIF, the ICC/orientation metadata we keep
//   codecs/      one file per format over its WASM (jSquash, libavif) or JS codec, and
//                decode.ts/encode.ts, which pick one by format for whole pictures
//   jpeg/ png/ avif/ webp/ bmp/ gif/ tiff/  our own format code: DCT-domain JPEG work and
//                band writer, banded PNG reading, AVIF still/grid writers, WebP, BMP, GIF
//                and TIFF band sources and writers
//   pixels/      pixel transforms: orientation, flattening, resampling, palette quantising
//   util/        byte readers and CRC-32
//   types.ts     the shared vocabulary (Pixels, ImageFormat, MIME types)
//
// Each operation ends by trimming codec heaps a big image grew, so the
// isolate goes back to its small footprint.

async function trimmed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    trimCodecHeaps(HEAP_TRIM_BYTES);
  }
}

export const compressImage = (input: Uint8Array, quality: number): Promise<ImageResult> => trimmed(() => compress(input, quality));
export const resizeImage = (input: Uint8Array, req: ResizeRequest): Promise<ImageResult> => trimmed(() => resize(input, req));
export const convertImage = (input: Uint8Array, format: ImageFormat, quality: number): Promise<ImageResult> => trimmed(() => convert(input, format, quality));
/** The picture scaled to width x height as a grey plane, read in bands (for SSIM of a re-encoded picture). */
export const greyPlane = (input: Uint8Array, width: number, height: number) => trimmed(() => plane(input, width, height));

/**
 * For engines that place a picture without decoding it (image to PDF embeds
 * a JPEG as it is): format and stored size from the header, within the
 * megapixel limit, and for JPEG its structure checked and EXIF orientation.
 */
export function imageFacts(input: Uint8Array): ImageHeader & { orientation: number } {
  const header = readHeader(input);
  return { ...header, orientation: header.format === "jpeg" ? checkedJpeg(input).orientation : 1 };
}

/** Colour components of a JPEG's frame (1 grey, 3 colour, 4 CMYK; 0 without a frame), for engines that embed JPEGs. */
export function jpegComponents(input: Uint8Array): number {
  return parseJpeg(input, true).frame?.components.length ?? 0;
}

/** Upright RGBA of any supported image (the first frame of animations), for engines that place pixels themselves. */
export const decodePixels = (input: Uint8Array): Promise<{ format: ImageFormat; pixels: Pixels; hasAlpha: boolean; notes: string[] }> =>
  trimmed(async () => {
    const decoded = await decodeImage(input);
    const pixels = upright(decoded);
    return { format: decoded.format, pixels, hasAlpha: hasAlpha(pixels), notes: decoded.notes };
  });

/** For other engines that draw pictures themselves (PDF image recompression) and need them as JPEG within a Worker's memory. */
export { encodeJpegFromRows } from "./memory/streaming";

export { MAX_SIDE, type ResizeRequest } from "./operations/resize-image";
export type { ImageResult } from "./operations/result";
export { EXTENSION, MIME, type ImageFormat, type Pixels } from "./types";
