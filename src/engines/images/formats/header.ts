import { LIMITS } from "../../../config";
import { EngineError } from "../../errors";
import { u16le, u24le, u32be, u32le } from "../util/bytes";
import { readBmpHeader } from "../codecs/bmp";
import { tiffPages } from "../codecs/tiff";
import { property, readHeifMeta } from "./isobmff";
import { parseJpeg } from "../jpeg/markers";
import { sniffFormat } from "./sniff";
import type { ImageFormat, ImageHeader } from "../types";

// Size from the header alone, so a decompression bomb (a few KB that inflate
// to gigabytes) is refused before any decoder allocates for it.

const corrupt = (format: string, why: string) => new EngineError("corrupt", `The ${format} header could not be read: ${why}.`);

function jpegSize(b: Uint8Array): [number, number] {
  const frame = parseJpeg(b, true).frame;
  if (!frame) throw corrupt("JPEG", "no frame header (truncated or not a JPEG)");
  if (!frame.height) throw corrupt("JPEG", "the height is only given after the image data (DNL), which is not supported");
  return [frame.width, frame.height];
}

function pngSize(b: Uint8Array): [number, number] {
  if (b.length < 24 || String.fromCharCode(...b.subarray(12, 16)) !== "IHDR") throw corrupt("PNG", "no IHDR chunk");
  return [u32be(b, 16), u32be(b, 20)];
}

function webpSize(b: Uint8Array): [number, number] {
  const kind = String.fromCharCode(...b.subarray(12, 16));
  const d = 20;
  if (kind === "VP8X" && b.length >= d + 10) return [u24le(b, d + 4) + 1, u24le(b, d + 7) + 1];
  if (kind === "VP8L" && b.length >= d + 5 && b[d] === 0x2f) {
    const bits = u32le(b, d + 1);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (kind === "VP8 " && b.length >= d + 10 && b[d + 3] === 0x9d && b[d + 4] === 0x01 && b[d + 5] === 0x2a) {
    return [u16le(b, d + 6) & 0x3fff, u16le(b, d + 8) & 0x3fff];
  }
  throw corrupt("WebP", "no VP8/VP8L/VP8X header");
}

function avifSize(b: Uint8Array): [number, number] {
  const meta = readHeifMeta(b);
  const ispe = meta && property(meta, "ispe");
  if (!ispe) throw corrupt("AVIF", "no image size (ispe) for the primary item");
  return [u32be(b, ispe.body), u32be(b, ispe.body + 4)];
}

function tiffSize(b: Uint8Array): [number, number] {
  const page = tiffPages(b).find((p) => p.t256 && p.t257);
  if (!page) throw corrupt("TIFF", "no image directory");
  return [(page.t256 as number[])[0], (page.t257 as number[])[0]];
}

const READERS: Record<ImageFormat, (b: Uint8Array) => [number, number]> = {
  jpeg: jpegSize,
  png: pngSize,
  gif: (b) => [u16le(b, 6), u16le(b, 8)],
  bmp: (b) => {
    const h = readBmpHeader(b);
    return [h.width, h.height];
  },
  webp: webpSize,
  avif: avifSize,
  tiff: tiffSize,
};

/** Sniffs the format and reads the size; throws "corrupt" for non-images, "too_large" over the megapixel limit. */
export function readHeader(b: Uint8Array): ImageHeader {
  if (!b.length) throw new EngineError("corrupt", "The file is empty.");
  const format = sniffFormat(b);
  if (!format) throw new EngineError("corrupt", "The file is not an image in a supported format (JPEG, PNG, WebP, AVIF, GIF, BMP, TIFF).");
  const [width, height] = READERS[format](b);
  if (!(width > 0) || !(height > 0)) throw corrupt(format.toUpperCase(), "zero or negative size");
  checkPixels(width, height, "The image");
  return { format, width, height };
}

/** The decode limit (100 megapixels, docs/reference/images.md), applied to inputs and to resize targets alike. */
export function checkPixels(width: number, height: number, what: string): void {
  const mp = (width * height) / 1e6;
  if (mp > LIMITS.imageMegapixels) {
    throw new EngineError("too_large", `${what} is ${width}x${height} (${mp.toFixed(1)} megapixels); the limit is ${LIMITS.imageMegapixels} megapixels.`);
  }
}
