import type { ImageFormat } from "../types";

/** What every image operation answers. Sizes are as displayed (after orientation). */
export interface ImageResult {
  bytes: Uint8Array;
  format: ImageFormat;
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  notes: string[];
}
