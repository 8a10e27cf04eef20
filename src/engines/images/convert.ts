import { decodeImage, upright } from "./decode";
import { encodeImage } from "./encode";
import type { ImageResult } from "./result";
import type { ImageFormat } from "./types";

/** Any supported input to `format`, upright, ICC profile kept where the target can carry one. */
export async function convertImage(input: Uint8Array, format: ImageFormat, quality: number): Promise<ImageResult> {
  const d = await decodeImage(input);
  const px = upright(d);
  const bytes = await encodeImage(px, format, { quality, icc: d.icc });
  return { bytes, format, width: px.width, height: px.height, originalWidth: px.width, originalHeight: px.height, notes: d.notes };
}
