import { BAND_PIXELS, WHOLE_JPEG_ENCODE_PIXELS } from "./budget";
import { encodeImage } from "./encode";
import { JpegBandSource } from "./jpeg/band-source";
import { JpegBandWriter } from "./jpeg/band-writer";
import { parseJpeg } from "./jpeg/markers";
import { canDecodeScaled, ScaledJpegSource, scaleDenominator } from "./jpeg/scaled-source";
import { applyOrientation, swapsAxes } from "./orientation";
import { StreamingResizer } from "./resample";
import type { ImageFormat, Pixels } from "./types";

// Big JPEGs (over STREAM_PIXELS) never exist whole in memory: a 24-megapixel
// photo is 96 MB as RGBA, and the codecs' WASM heaps would need as much again,
// while a Worker has 128 MB in all. They are read, resized and written in
// bands of about a megapixel.

export { STREAM_PIXELS } from "./budget";

/** Encodes whole pixels band by band with MozJPEG (for outputs too big to encode at once). */
export async function encodeJpegInBands(px: Pixels, quality: number, meta: { icc?: Uint8Array; orientation?: number }): Promise<Uint8Array> {
  const out = new JpegBandWriter(px.width, px.height, quality, meta, BAND_PIXELS);
  await out.write(px);
  return out.finish();
}

/** Lanczos3 of whole pixels with the streaming resampler (bounded extra memory). */
export function resizeInJs(px: Pixels, width: number, height: number): Pixels {
  const r = new StreamingResizer(px.width, px.height, width, height);
  const data = new Uint8Array(width * height * 4);
  let y = 0;
  for (const rows of r.push(px)) {
    data.set(rows.data, y * width * 4);
    y += rows.height;
  }
  return { data, width, height };
}

/** Reassembles bands into one image (for encoders that need the whole picture). */
export async function collect(source: AsyncIterable<{ y: number; pixels: Pixels }>, width: number, height: number): Promise<Pixels> {
  const data = new Uint8Array(width * height * 4);
  for await (const band of source) data.set(band.pixels.data, band.y * width * 4);
  return { data, width, height };
}

export async function decodeLargeJpeg(b: Uint8Array): Promise<Pixels> {
  const src = new JpegBandSource(b, parseJpeg(b));
  return collect(src.bands(BAND_PIXELS), src.width, src.height);
}

/** MozJPEG at `quality`, band by band; pixels stay as stored, orientation and ICC are re-attached. */
export async function compressLargeJpeg(b: Uint8Array, quality: number, meta: { icc?: Uint8Array; orientation?: number }): Promise<Uint8Array> {
  const src = new JpegBandSource(b, parseJpeg(b));
  const out = new JpegBandWriter(src.width, src.height, quality, meta, BAND_PIXELS);
  for await (const band of src.bands(BAND_PIXELS)) await out.write(band.pixels);
  return out.finish();
}

export interface LargeResize {
  /** Upright target size. */
  width: number;
  height: number;
  orientation: number;
  format: ImageFormat;
  quality: number;
  icc?: Uint8Array;
}

/**
 * Resizes in stored orientation (the target's sides swapped when the EXIF
 * orientation turns the picture), then turns the small result upright. A large
 * JPEG result is written band by band too. Reductions by 3 or more start from
 * a reduced-scale decode (jpeg/scaled-source.ts).
 */
export async function resizeLargeJpeg(b: Uint8Array, req: LargeResize): Promise<Uint8Array> {
  const s = parseJpeg(b);
  const swap = swapsAxes(req.orientation);
  const [w, h] = swap ? [req.height, req.width] : [req.width, req.height];
  // A big downscale starts from a 1/2, 1/4 or 1/8 scale decode (DCT domain), never from full-size pixels.
  const frame = s.frame;
  const d = frame && canDecodeScaled(s) ? scaleDenominator(frame.width, frame.height, w, h) : 1;
  const src = d > 1 ? new ScaledJpegSource(b, s, d) : new JpegBandSource(b, s);
  const resizer = new StreamingResizer(src.width, src.height, w, h);
  const streamOut = req.format === "jpeg" && w * h > WHOLE_JPEG_ENCODE_PIXELS;
  const writer = streamOut ? new JpegBandWriter(w, h, req.quality, { icc: req.icc, orientation: req.orientation }, BAND_PIXELS) : null;
  const whole = streamOut ? null : new Uint8Array(w * h * 4);
  let y = 0;
  for await (const band of src.bands(BAND_PIXELS)) {
    for (const rows of resizer.push(band.pixels)) {
      if (writer) await writer.write(rows);
      else (whole as Uint8Array).set(rows.data, y * w * 4);
      y += rows.height;
    }
  }
  if (writer) return writer.finish();
  const upright = applyOrientation({ data: whole as Uint8Array, width: w, height: h }, req.orientation);
  return encodeImage(upright, req.format, { quality: req.quality, icc: req.icc });
}
