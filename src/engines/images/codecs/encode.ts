import { trimCodecHeaps } from "./emscripten";
import { unavailable } from "./decode";
import { AVIF_AVAILABLE, encodeAvif } from "./avif";
import { AVIF_GRID_PIXELS, AVIF_SCREEN_FRAME_PIXELS, encodeAvifGrid } from "../avif/grid-writer";
import { screenToolsOf } from "../avif/screen-content";
import { encodeBmp } from "./bmp";
import { encodeGif } from "./gif";
import { encodeJpeg } from "./jpeg";
import { optimisePixels } from "./oxipng";
import { encodeTiff } from "./tiff";
import { encodeWebp } from "./webp";
import { OXIPNG_PIXELS, WHOLE_JPEG_ENCODE_PIXELS } from "../memory/budget";
import { writePng } from "./png-writer";
import { flattenOnWhite } from "../pixels/flatten";
import { encodeJpegInBands } from "../memory/streaming";
import { hasAlpha } from "./decode";
import { withJpegMetadata, withPngIcc, withWebpIcc } from "../formats/metadata";
import type { ImageFormat, Pixels } from "../types";

export interface EncodeOptions {
  /** AVIF: a grid of tiles even at a size one frame is written at (the call's memory plan chose it: memory-fit.ts). */
  avifGrid?: boolean;
  /** 1..100, for JPEG, WebP and AVIF. */
  quality: number;
  icc?: Uint8Array;
  /** JPEG only: an EXIF orientation to record instead of rotating pixels. */
  orientation?: number;
}

/**
 * One AV1 frame, its screen-content tools chosen by our rule rather than
 * aom's (avif/screen-content.ts): aom's would search IntraBC on smooth
 * photos too, and IntraBC's tables grow the heap past any budget on a big
 * frame (avifFrameBytes). Screen content bigger than a grid tile becomes a
 * grid of small tiles, which bound them.
 */
async function encodeAvifFrame(px: Pixels, quality: number): Promise<Uint8Array> {
  const alpha = hasAlpha(px);
  const screenTools = screenToolsOf(px);
  // The alpha item is a frame of its own: text or a logo's mask in it gets IntraBC as well.
  const alphaScreenTools = alpha ? screenToolsOf(px, "alpha") : "off";
  // The decoders' heaps are dropped first, on either road, so they never
  // coexist with aom's (memory-fit.ts counts the larger of the two).
  trimCodecHeaps(0);
  const screen = screenTools === "all" || alphaScreenTools === "all";
  if (screen && px.width * px.height > AVIF_SCREEN_FRAME_PIXELS) return encodeAvifGrid(px, quality, { alpha });
  return encodeAvif(px, quality, { screenTools, alphaScreenTools });
}

/**
 * Writes pixels in `format`. PNG, TIFF are lossless, GIF gets the most
 * accurate 256-colour palette, BMP and JPEG lose alpha onto white.
 */
export async function encodeImage(px: Pixels, format: ImageFormat, opts: EncodeOptions): Promise<Uint8Array> {
  switch (format) {
    case "jpeg": {
      const opaque = hasAlpha(px) ? flattenOnWhite(px) : px;
      const meta = { icc: opts.icc, orientation: opts.orientation };
      if (px.width * px.height > WHOLE_JPEG_ENCODE_PIXELS) return encodeJpegInBands(opaque, opts.quality, meta);
      return withJpegMetadata(await encodeJpeg(opaque, opts.quality), meta);
    }
    case "png":
      return withPngIcc(px.width * px.height > OXIPNG_PIXELS ? writePng(px) : await optimisePixels(px), opts.icc);
    case "webp":
      return withWebpIcc(await encodeWebp(px, opts.quality), opts.icc, px.width, px.height);
    case "avif":
      if (!AVIF_AVAILABLE) throw unavailable("AVIF");
      // aom's heap grows with the frame: big pictures are written as a grid of tiles.
      if (opts.avifGrid || px.width * px.height > AVIF_GRID_PIXELS) return encodeAvifGrid(px, opts.quality, { alpha: hasAlpha(px) });
      return encodeAvifFrame(px, opts.quality);
    case "gif":
      return encodeGif(px);
    case "bmp":
      return encodeBmp(hasAlpha(px) ? flattenOnWhite(px) : px);
    case "tiff":
      return encodeTiff(px, { alpha: hasAlpha(px), icc: opts.icc });
  }
}
