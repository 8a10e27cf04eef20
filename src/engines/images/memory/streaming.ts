import { BAND_PIXELS, WHOLE_JPEG_ENCODE_PIXELS } from "./budget";
import { encodeJpeg } from "../codecs/jpeg";
import { JpegBandSource } from "../jpeg/band-source";
import { JpegBandWriter } from "../jpeg/band-writer";
import { parseJpeg } from "../jpeg/markers";
import type { BandSource, RowSink } from "./bands";
import type { FileBytes } from "../../bytes";
import { memoryProbe } from "./probe";
import { StreamingResizer } from "../pixels/resample";
import type { Pixels } from "../types";

// Big pictures never exist whole in memory: a 24-megapixel photo is 96 MB as
// RGBA, and the codecs' WASM heaps would need as much again, while a Worker
// has 128 MB in all. They are read, resized and written in bands of about a
// megapixel (paths.ts says which inputs and outputs can be).

export { STREAM_PIXELS } from "./budget";

/** Encodes whole pixels band by band with MozJPEG (for outputs too big to encode at once). */
export async function encodeJpegInBands(px: Pixels, quality: number, meta: { icc?: Uint8Array; orientation?: number }): Promise<Uint8Array> {
  const out = new JpegBandWriter(px.width, px.height, quality, meta, BAND_PIXELS);
  await out.write(px);
  return out.finish();
}

/**
 * An RGB JPEG of width x height whose rows `draw(y0, y1)` makes on demand: a
 * small picture drawn whole and encoded progressive, a large one a band at a
 * time through the band writer (baseline, optimised tables), so the caller
 * never holds more than a band. `afterBand` runs once each band is written.
 */
export async function encodeJpegFromRows(
  width: number,
  height: number,
  quality: number,
  draw: (y0: number, y1: number) => Pixels,
  afterBand: () => void = () => undefined,
): Promise<Uint8Array> {
  if (width * height <= WHOLE_JPEG_ENCODE_PIXELS) return encodeJpeg(draw(0, height), quality);
  const writer = new JpegBandWriter(width, height, quality, {}, BAND_PIXELS);
  for (let y = 0; y < height; y += writer.bandRows) {
    await writer.write(draw(y, Math.min(height, y + writer.bandRows)));
    afterBand();
  }
  return writer.finish();
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

/**
 * Source to sink through the streaming Lanczos3 when the size changes: the
 * picture never exists whole unless the sink itself needs it. A sink that
 * takes the picture in several passes gets it read and resampled again each
 * time, from the same source when it can be read again (readFor), else from
 * a source `reopen` gives.
 */
export async function transcode<Out extends FileBytes>(
  source: BandSource,
  width: number,
  height: number,
  sink: RowSink<Out>,
  reopen?: () => Promise<BandSource>,
): Promise<Out> {
  const passes = sink.passes ?? 1;
  if (passes > 1 && !reopen) throw new Error("transcode: a sink of several passes needs a way to reopen the source");
  if (passes > 1) source.readFor?.(passes);
  // A JPEG's own YCbCr into a sink that takes it (the WebP planes): no RGB rows at all.
  if (passes === 1 && width === source.width && height === source.height && sink.writeYcbcr) {
    const coefficients = source.ycbcrCoefficients?.();
    if (coefficients && (await sink.writeYcbcr(coefficients))) return sink.finish();
  }
  for (let pass = 1; pass <= passes; pass++) {
    const from = pass === 1 || source.readFor ? source : await (reopen as () => Promise<BandSource>)();
    const resizer = width === from.width && height === from.height ? null : new StreamingResizer(from.width, from.height, width, height);
    for await (const band of from.bands(BAND_PIXELS)) {
      if (!resizer) await sink.write(band.pixels);
      else for (const rows of resizer.push(band.pixels)) await sink.write(rows);
      memoryProbe.sample();
    }
    if (pass < passes) sink.endPass?.();
  }
  return sink.finish();
}
