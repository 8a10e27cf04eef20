import { HEAP_TRIM_BYTES } from "./budget";
import { trimCodecHeaps } from "./codecs/emscripten";
import { compressImage as compress } from "./compress";
import { convertImage as convert } from "./convert";
import { resizeImage as resize, type ResizeRequest } from "./resize-image";
import type { ImageResult } from "./result";
import type { ImageFormat } from "./types";

// The image engine's public surface: pure functions over bytes. Each call
// ends by trimming codec heaps a big image grew, so the isolate goes back to
// its small footprint.

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

export { targetSize, MAX_SIDE, type ResizeRequest } from "./resize-image";
export type { ImageResult } from "./result";
export { EXTENSION, FORMATS, MIME, type ImageFormat } from "./types";
