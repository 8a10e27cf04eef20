import { resizeImage } from "./resize-image";
import type { ImageResult } from "./result";
import type { ImageFormat } from "../types";

/**
 * Any supported input to `format`, upright, ICC profile kept where the target
 * can carry one: a resize to the picture's own size, so big inputs take the
 * same banded roads.
 */
export function convertImage(input: Uint8Array, format: ImageFormat, quality: number): Promise<ImageResult> {
  return resizeImage(input, { format, quality });
}
