import { encodeGif } from "./codecs/gif";
import { OXIPNG_PIXELS } from "./budget";
import { optimisePixels, optimisePng } from "./codecs/oxipng";
import { writePalettePng, writePng } from "./codecs/png-writer";
import { decodeImage, upright, type Decoded } from "./decode";
import { encodeImage } from "./encode";
import { readHeader } from "./header";
import { checkedJpeg } from "./jpeg/decode-file";
import { withPngIcc } from "./metadata";
import { swapsAxes } from "./orientation";
import { quantize } from "./quantize";
import type { ImageResult } from "./result";
import { compressLargeJpeg, STREAM_PIXELS } from "./streaming";
import type { ImageHeader, Pixels } from "./types";

// Compress keeps the source format (api.md). JPEG: MozJPEG at `quality`, pixels
// left as stored with the orientation tag and ICC profile re-attached. PNG:
// palette quantisation driven by `quality` (100 = lossless), then oxipng. WebP
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

async function encodeSameFormat(d: Decoded, quality: number): Promise<Uint8Array | null> {
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
      return encodeImage(upright(d), d.format, { quality, icc: d.icc });
  }
}

function neverLarger(input: Uint8Array, encoded: Uint8Array | null, notes: string[]): Uint8Array {
  if (!encoded) return input;
  if (encoded.length < input.length) return encoded;
  notes.push("the re-encoded file was not smaller, so the original is returned unchanged");
  return input;
}

async function compressLarge(input: Uint8Array, quality: number, header: ImageHeader): Promise<ImageResult> {
  const { orientation, icc } = checkedJpeg(input);
  const swap = swapsAxes(orientation);
  const [width, height] = swap ? [header.height, header.width] : [header.width, header.height];
  const notes: string[] = [];
  const bytes = neverLarger(input, await compressLargeJpeg(input, quality, { icc, orientation }), notes);
  return { bytes, format: "jpeg", width, height, originalWidth: width, originalHeight: height, notes };
}

export async function compressImage(input: Uint8Array, quality: number): Promise<ImageResult> {
  const header = readHeader(input);
  if (header.format === "jpeg" && header.width * header.height > STREAM_PIXELS) return compressLarge(input, quality, header);
  const d = await decodeImage(input);
  const swap = swapsAxes(d.orientation);
  const width = swap ? d.pixels.height : d.pixels.width;
  const height = swap ? d.pixels.width : d.pixels.height;
  const encoded = await encodeSameFormat(d, quality);
  const notes = d.format === "gif" && d.frames > 1 ? [`animated GIF (${d.frames} frames) returned unchanged: recompressing would drop the animation`] : [...d.notes];
  const bytes = neverLarger(input, encoded, notes);
  return { bytes, format: d.format, width, height, originalWidth: width, originalHeight: height, notes };
}
