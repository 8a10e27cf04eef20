import { EngineError } from "../../errors";
import { avifInfo, withPixi } from "../formats/avif-container";
import { AVIF_AVAILABLE, decodeAvif } from "./avif";
import { decodeBmp } from "./bmp";
import { decodeGif } from "./gif";
import { decodeTiff } from "./tiff";
import { decodeWebp } from "./webp";
import { readHeader } from "../formats/header";
import { PngBandSource } from "../png/band-source";
import { collect } from "../memory/streaming";
import { decodeJpegFile } from "../jpeg/decode-file";
import { pngIcc, pngIsAnimated, pngOrientation, rgbIcc, webpIcc, webpOrientation } from "../formats/metadata";
import { applyOrientation } from "../pixels/orientation";
import type { ImageFormat, ImageHeader, Pixels } from "../types";
import { firstFrame, isAnimatedWebp, placeOnCanvas } from "../formats/webp-animation";

// One entry point from bytes to upright RGBA: sniff, check the size from the
// header, decode with the format's codec, then apply orientation.

export interface Decoded {
  format: ImageFormat;
  header: ImageHeader;
  /** Stored pixels; `orientation` says how to make them upright. */
  pixels: Pixels;
  orientation: number;
  icc?: Uint8Array;
  frames: number;
  notes: string[];
}

export const unavailable = (format: string) => new EngineError("unsupported", `${format} support is an optional plugin that is not installed on this server.`);

async function decodeWebpFile(b: Uint8Array): Promise<Omit<Decoded, "format" | "header">> {
  const base = { orientation: webpOrientation(b), icc: webpIcc(b) };
  if (!isAnimatedWebp(b)) return { ...base, pixels: await decodeWebp(b), frames: 1, notes: [] };
  const f = firstFrame(b);
  if (!f) throw new EngineError("corrupt", "The animated WebP has no readable frame.");
  const frame = await decodeWebp(f.still);
  const notes = f.frames > 1 ? [`animated WebP: the first of ${f.frames} frames was used`] : [];
  return { ...base, pixels: placeOnCanvas(frame, f.x, f.y, f.canvasWidth, f.canvasHeight), frames: f.frames, notes };
}

async function decodeAvifFile(b: Uint8Array): Promise<Omit<Decoded, "format" | "header">> {
  if (!AVIF_AVAILABLE) throw unavailable("AVIF");
  const info = avifInfo(b);
  const pixels = await decodeAvif(withPixi(b));
  const notes = info.sequence ? ["AVIF image sequence: the first frame was used"] : [];
  return { pixels, orientation: info.orientation, icc: info.icc, frames: 1, notes };
}

async function decodeBody(format: ImageFormat, b: Uint8Array): Promise<Omit<Decoded, "format" | "header">> {
  switch (format) {
    case "jpeg":
      return { ...(await decodeJpegFile(b)), frames: 1, notes: [] };
    case "png": {
      const frames = pngIsAnimated(b);
      const notes = frames > 1 ? [`animated PNG: the default image of ${frames} frames was used`] : [];
      const source = new PngBandSource(b);
      const pixels = await collect(source.bands(), source.width, source.height);
      return { pixels, orientation: pngOrientation(b), icc: pngIcc(b), frames, notes };
    }
    case "webp":
      return decodeWebpFile(b);
    case "avif":
      return decodeAvifFile(b);
    case "gif": {
      const gif = decodeGif(b);
      const notes = gif.frames > 1 ? [`animated GIF: the first of ${gif.frames} frames was used`] : [];
      return { pixels: gif.pixels, orientation: 1, frames: gif.frames, notes };
    }
    case "bmp":
      return { pixels: decodeBmp(b), orientation: 1, frames: 1, notes: [] };
    case "tiff": {
      const t = decodeTiff(b);
      const notes = t.pages > 1 ? [`multi-page TIFF: the first of ${t.pages} pages was used`] : [];
      return { pixels: t.pixels, orientation: t.orientation, icc: t.icc, frames: 1, notes };
    }
  }
}

/** Decodes any supported image; pixels stay as stored (see `upright`). */
export async function decodeImage(b: Uint8Array): Promise<Decoded> {
  const header = readHeader(b);
  const body = await decodeBody(header.format, b);
  return { format: header.format, header, ...body, icc: rgbIcc(body.icc) };
}

/** Pixels as a viewer shows them. */
export function upright(d: Decoded): Pixels {
  return applyOrientation(d.pixels, d.orientation);
}

export function hasAlpha(px: Pixels): boolean {
  const d = px.data;
  for (let i = 3; i < d.length; i += 4) if (d[i] !== 255) return true;
  return false;
}
