import { decodeImage, upright } from "./decode";
import { encodeImage } from "./encode";
import { readHeader } from "./header";
import { checkedJpeg } from "./jpeg/decode-file";
import { assertFitsWorker, isBanded } from "./memory-fit";
import { swapsAxes } from "./orientation";
import { resizeImage } from "./resize-image";
import type { ImageResult } from "./result";
import type { ImageFormat } from "./types";

/** Any supported input to `format`, upright, ICC profile kept where the target can carry one. */
export async function convertImage(input: Uint8Array, format: ImageFormat, quality: number): Promise<ImageResult> {
  const header = readHeader(input);
  const pixels = header.width * header.height;
  if (isBanded(header.format, pixels)) return convertLargeJpeg(input, header.width, header.height, format, quality);
  assertFitsWorker({ input: { format: header.format, pixels }, output: { format, pixels }, bandedInput: false });
  const d = await decodeImage(input);
  const px = upright(d);
  const bytes = await encodeImage(px, format, { quality, icc: d.icc });
  return { bytes, format, width: px.width, height: px.height, originalWidth: px.width, originalHeight: px.height, notes: d.notes };
}

/**
 * A big JPEG is never decoded whole: it goes through the banded resize at its
 * own (upright) size, which streams into any target format.
 */
async function convertLargeJpeg(input: Uint8Array, width: number, height: number, format: ImageFormat, quality: number): Promise<ImageResult> {
  const { orientation } = checkedJpeg(input);
  const [w, h] = swapsAxes(orientation) ? [height, width] : [width, height];
  return resizeImage(input, { width: w, height: h, format, quality });
}
