/** RGBA, 8 bits a channel, rows top to bottom: the common currency of every codec here. */
export interface Pixels {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

/** Formats we read; every one of them can also be written. */
export const FORMATS = ["jpeg", "png", "webp", "avif", "gif", "bmp", "tiff"] as const;
export type ImageFormat = (typeof FORMATS)[number];

export const MIME: Record<ImageFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  gif: "image/gif",
  bmp: "image/bmp",
  tiff: "image/tiff",
};

export const EXTENSION: Record<ImageFormat, string> = {
  jpeg: "jpg",
  png: "png",
  webp: "webp",
  avif: "avif",
  gif: "gif",
  bmp: "bmp",
  tiff: "tif",
};

/** What a header tells before any pixel is decoded. */
export interface ImageHeader {
  format: ImageFormat;
  /** Stored size, before EXIF orientation is applied. */
  width: number;
  height: number;
}

/** A decoded picture, upright (EXIF / irot orientation already applied). */
export interface DecodedImage {
  format: ImageFormat;
  pixels: Pixels;
  /** Embedded ICC profile, kept on outputs that can carry one. */
  icc?: Uint8Array;
  /** True when some pixel has alpha below 255. */
  hasAlpha: boolean;
  /** Things the caller should be told, e.g. "animated GIF: first of 5 frames". */
  notes: string[];
  /** Frames in the source (animated GIF/WebP); 1 for stills. */
  frames: number;
}
