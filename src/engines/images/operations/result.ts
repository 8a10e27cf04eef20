import type { FileBytes } from "../../bytes";
import type { ImageFormat } from "../types";

/** What every image operation answers. Sizes are as displayed (after orientation). */
export interface ImageResult {
  /** The file, in pieces when it was written so (storage streams them). */
  bytes: FileBytes;
  format: ImageFormat;
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  notes: string[];
}
