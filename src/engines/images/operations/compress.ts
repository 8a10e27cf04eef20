import { encodeGif, readGifFrame } from "../codecs/gif";
import { OXIPNG_PIXELS } from "../memory/budget";
import { optimisePixels, optimisePng } from "../codecs/oxipng";
import { writePalettePng, writePng } from "../codecs/png-writer";
import { decodeImage, upright, type Decoded } from "../codecs/decode";
import { encodeImage } from "../codecs/encode";
import { readHeader } from "../formats/header";
import { fitWorker } from "../memory/memory-fit";
import { checkedJpeg } from "../jpeg/decode-file";
import { parseJpeg } from "../jpeg/markers";
import { canRequantize, requantizeJpeg } from "../jpeg/requantize";
import { withPngIcc } from "../formats/metadata";
import { swapsAxes } from "../pixels/orientation";
import { quantize } from "../pixels/quantize";
import type { ImageResult } from "./result";
import type { FileBytes } from "../../bytes";
import { compressLargeJpeg, STREAM_PIXELS, transcode } from "../memory/streaming";
import { inputFacts, sinkRoad, sourceRoad } from "../memory/paths";
import { openSink } from "../memory/sinks";
import { recordSource } from "../memory/roads-taken";
import { bandedOrientation, openSource } from "../memory/sources";
import { quantizePngStreaming } from "../pixels/quantize-stream";
import type { ImageFormat, ImageHeader, Pixels } from "../types";
import { resizeImage } from "./resize-image";

// Compress keeps the source format (docs/reference/images.md). JPEG: re-quantised in the DCT
// domain to MozJPEG's tables at `quality` (jpeg/requantize.ts), or MozJPEG at
// `quality` for layouts that cannot be (CMYK, RGB-coded, arithmetic, chroma
// finer than MozJPEG would write); either way pixels stay as stored, with the
// orientation tag and ICC profile re-attached. PNG: palette quantisation driven by `quality` (100 = lossless), then oxipng. WebP
// and AVIF: lossy at `quality`. GIF: a fresh palette. BMP and TIFF: lossless
// re-encoding. Then the never-larger rule.

async function compressPng(px: Pixels, quality: number, icc?: Uint8Array): Promise<Uint8Array> {
  const small = px.width * px.height <= OXIPNG_PIXELS;
  if (quality >= 100) return withPngIcc(small ? await optimisePixels(px) : writePng(px), icc);
  const pal = quantize(px, { maxColors: 256, quality, dither: true });
  const png = writePalettePng(px.width, px.height, pal);
  if (!small) return withPngIcc(png, icc);
  // oxipng's filter and deflate search usually shaves a few more percent off.
  const optimised = await optimisePng(png);
  return withPngIcc(optimised.length < png.length ? optimised : png, icc);
}

async function encodeSameFormat(d: Decoded, quality: number, avifGrid: boolean): Promise<Uint8Array | null> {
  switch (d.format) {
    case "jpeg":
      // Rotating would cost a full copy of the pixels for nothing: the tag does the job.
      return encodeImage(d.pixels, "jpeg", { quality, icc: d.icc, orientation: d.orientation });
    case "png":
      return compressPng(upright(d), quality, d.icc);
    case "gif":
      // Re-encoding one frame would silently drop the animation.
      return d.frames > 1 ? null : encodeGif(upright(d), quality);
    default:
      return encodeImage(upright(d), d.format, { quality, icc: d.icc, avifGrid });
  }
}

function neverLarger(input: Uint8Array, encoded: FileBytes | null, notes: string[]): FileBytes {
  if (!encoded) return input;
  if (encoded.length < input.length) return encoded;
  notes.push("the re-encoded file was not smaller, so the original is returned unchanged");
  return input;
}

/**
 * JPEG to JPEG without leaving the DCT domain where the layout allows (any
 * size), else band by band through MozJPEG for big files; small others take
 * the whole-image road below.
 */
async function compressJpeg(input: Uint8Array, quality: number, header: ImageHeader): Promise<ImageResult | null> {
  const { orientation, icc } = checkedJpeg(input);
  const s = parseJpeg(input);
  const direct = await canRequantize(s, quality);
  if (!direct && header.width * header.height <= STREAM_PIXELS) return null;
  const swap = swapsAxes(orientation);
  const [width, height] = swap ? [header.height, header.width] : [header.width, header.height];
  const notes: string[] = [];
  const meta = { icc, orientation };
  const encoded = direct ? await requantizeJpeg(input, s, quality, meta) : await compressLargeJpeg(input, quality, meta);
  const bytes = neverLarger(input, encoded, notes);
  return { bytes, format: "jpeg", width, height, originalWidth: width, originalHeight: height, notes };
}

/**
 * A big non-interlaced PNG in bands: quantised in two passes over the source
 * (histogram, then remapping) or, at quality 100, re-encoded losslessly row by
 * row. One that must be turned upright takes the whole road (null).
 */
async function compressPngInBands(input: Uint8Array, quality: number, header: ImageHeader): Promise<ImageResult | null> {
  if (bandedOrientation(input, "png-bands") !== 1) return null;
  const { width, height } = header;
  await fitWorker({ input: { format: "png", pixels: width * height }, source: "png-bands", output: { format: "png", width, height, sink: "png-rows" } });
  const opened = await openSource(input, "png-bands");
  const encoded =
    quality >= 100
      ? await transcode(opened.source, width, height, openSink("png-rows", { ...opened, format: "png", width, height, quality }))
      : withPngIcc(await quantizePngStreaming(opened.source, quality), opened.icc);
  const notes = [...opened.notes];
  const bytes = neverLarger(input, encoded, notes);
  return { bytes, format: "png", width, height, originalWidth: width, originalHeight: height, notes };
}

/**
 * Other formats read in bands (big BMP, GIF, TIFF...): re-encoded in their own
 * format through the same banded roads as a conversion. An animated GIF is
 * returned as it is, as on the whole road.
 */
async function compressInBands(input: Uint8Array, quality: number, format: ImageFormat): Promise<ImageResult> {
  // Counted from the block structure alone: the frame is decoded once, by the conversion below.
  const frames = format === "gif" ? readGifFrame(input, true).frames : 1;
  if (frames > 1) {
    const { width, height } = readHeader(input);
    const notes = [`animated GIF (${frames} frames) returned unchanged: recompressing would drop the animation`];
    return { bytes: input, format, width, height, originalWidth: width, originalHeight: height, notes };
  }
  const r = await resizeImage(input, { format, quality, paletteQuality: quality });
  return { ...r, bytes: neverLarger(input, r.bytes, r.notes) };
}

export async function compressImage(input: Uint8Array, quality: number): Promise<ImageResult> {
  const header = readHeader(input);
  const pixels = header.width * header.height;
  const format = header.format;
  const road = sourceRoad(inputFacts(input, header));
  if (format === "jpeg") {
    const done = await compressJpeg(input, quality, header);
    if (done) return done;
  }
  if (road === "png-bands") {
    const done = await compressPngInBands(input, quality, header);
    if (done) return done;
  } else if (road !== "whole" && road !== "jpeg-bands") {
    return compressInBands(input, quality, format);
  }
  const admitted = await fitWorker({
    input: { format, pixels },
    source: "whole",
    output: { format, width: header.width, height: header.height, sink: sinkRoad(format, pixels) },
  });
  recordSource("whole");
  const d = await decodeImage(input);
  const swap = swapsAxes(d.orientation);
  const width = swap ? d.pixels.height : d.pixels.width;
  const height = swap ? d.pixels.width : d.pixels.height;
  const encoded = await encodeSameFormat(d, quality, admitted.output?.sink === "avif-grid");
  const notes =
    d.format === "gif" && d.frames > 1 ? [`animated GIF (${d.frames} frames) returned unchanged: recompressing would drop the animation`] : [...d.notes];
  const bytes = neverLarger(input, encoded, notes);
  return { bytes, format: d.format, width, height, originalWidth: width, originalHeight: height, notes };
}
