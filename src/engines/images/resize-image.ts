import { EngineError } from "../errors";
import { resizeLanczos3 } from "./codecs/resize";
import { decodeImage, upright } from "./decode";
import { encodeImage } from "./encode";
import { checkPixels, readHeader } from "./header";
import { assertFitsWorker } from "./memory-fit";
import { checkedJpeg } from "./jpeg/decode-file";
import { swapsAxes } from "./orientation";
import { WASM_RESIZE_PIXELS } from "./budget";
import { resizeInJs, resizeLargeJpeg, STREAM_PIXELS } from "./streaming";
import type { ImageResult } from "./result";
import type { ImageFormat, ImageHeader } from "./types";

export const MAX_SIDE = 20000;

export interface ResizeRequest {
  width?: number;
  height?: number;
  format?: ImageFormat;
  quality: number;
}

/** Target size: both sides as given, or one side with the other kept in proportion (api.md). */
export function targetSize(srcW: number, srcH: number, req: { width?: number; height?: number }): [number, number] {
  let w = req.width;
  let h = req.height;
  if (w === undefined && h === undefined) throw new EngineError("invalid_input", "Give width, height or both.");
  if (w === undefined) w = Math.round((srcW * (h as number)) / srcH);
  if (h === undefined) h = Math.round((srcH * w) / srcW);
  if (w < 1 || h < 1 || w > MAX_SIDE || h > MAX_SIDE) {
    throw new EngineError("invalid_input", `The resized image would be ${w}x${h} px; each side must be within 1 to ${MAX_SIDE} px.`);
  }
  return [w, h];
}

async function resizeLarge(input: Uint8Array, req: ResizeRequest, header: ImageHeader): Promise<ImageResult> {
  const { orientation, icc } = checkedJpeg(input);
  const [srcW, srcH] = swapsAxes(orientation) ? [header.height, header.width] : [header.width, header.height];
  const [w, h] = targetSize(srcW, srcH, req);
  checkPixels(w, h, "The resized image");
  const format = req.format ?? "jpeg";
  assertFitsWorker({ input: { format: "jpeg", pixels: srcW * srcH }, output: { format, pixels: w * h }, bandedInput: true });
  const bytes = await resizeLargeJpeg(input, { width: w, height: h, orientation, format, quality: req.quality, icc });
  return { bytes, format, width: w, height: h, originalWidth: srcW, originalHeight: srcH, notes: [] };
}

export async function resizeImage(input: Uint8Array, req: ResizeRequest): Promise<ImageResult> {
  const header = readHeader(input);
  if (header.format === "jpeg" && header.width * header.height > STREAM_PIXELS) return resizeLarge(input, req, header);
  // Decoding is checked from the header; the target size is only known (and
  // validated) once the orientation is, after decoding, and checked then.
  const source = { format: header.format, pixels: header.width * header.height };
  assertFitsWorker({ input: source, bandedInput: false });
  const d = await decodeImage(input);
  const px = upright(d);
  const [w, h] = targetSize(px.width, px.height, req);
  checkPixels(w, h, "The resized image");
  assertFitsWorker({ input: source, output: { format: req.format ?? d.format, pixels: w * h }, bandedInput: false });
  const small = px.width * px.height + w * h <= WASM_RESIZE_PIXELS;
  const out = w === px.width && h === px.height ? px : small ? await resizeLanczos3(px, w, h) : resizeInJs(px, w, h);
  const format = req.format ?? d.format;
  const bytes = await encodeImage(out, format, { quality: req.quality, icc: d.icc });
  return { bytes, format, width: w, height: h, originalWidth: px.width, originalHeight: px.height, notes: d.notes };
}
