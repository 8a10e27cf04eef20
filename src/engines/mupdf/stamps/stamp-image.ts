import { contiguous } from "../../bytes";
import { EngineError } from "../../errors";
import { imageFacts, resizeImage } from "../../images";
import type { Mupdf } from "../core/loader";
import { asEngineError } from "../core/document";

type Image = InstanceType<Mupdf["Image"]>;

/** The watermark image is downscaled to at most 1000 px on its longer side (docs/reference/pdf-stamps.md). */
export const MAX_STAMP_SIDE = 1000;

export type StampImageFormat = "png" | "jpeg";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** PNG or JPEG by magic bytes (the file name is not trusted). */
export function sniffStampImage(bytes: Uint8Array): StampImageFormat | null {
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  return null;
}

/** Pixel size from the header alone, so the megapixel limit holds before decoding. */
export function headerSize(bytes: Uint8Array, format: StampImageFormat): [number, number] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === "png") return bytes.length >= 24 ? [view.getUint32(16), view.getUint32(20)] : null;
  // JPEG: walk the marker segments up to a start-of-frame (SOF0..SOF15 but DHT, JPG, DAC).
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [view.getUint16(at + 7), view.getUint16(at + 5)];
    }
    at += 2 + length;
  }
  return null;
}

/**
 * Checks and decodes a watermark image: PNG or JPEG by content, within the
 * megapixel limit, fully decodable; images over 1000 px are redrawn smaller
 * (alpha kept, so transparent parts of a PNG stay transparent on the page).
 */
/**
 * MuPDF decodes the whole watermark before it is shrunk to 1000 px: 16 MP is
 * a 64 MB pixmap, what a 128 MB Worker can spare beside the document. (The
 * general 100-megapixel image limit would be a 400 MB pixmap.)
 */
const MAX_STAMP_PIXELS = 16_000_000;

export function loadStampImage(mupdf: Mupdf, bytes: Uint8Array): Image {
  const format = sniffStampImage(bytes);
  if (!format) throw new EngineError("invalid_input", "The watermark must be a PNG or JPEG image.");
  const size = headerSize(bytes, format);
  if (!size || size[0] < 1 || size[1] < 1) throw new EngineError("invalid_input", "The watermark image header is unreadable.");
  if (size[0] * size[1] > MAX_STAMP_PIXELS) {
    throw new EngineError(
      "invalid_input",
      `The watermark image has more than ${MAX_STAMP_PIXELS / 1e6} megapixels; it is shown at most ${MAX_STAMP_SIDE} px wide anyway.`,
    );
  }
  let image: Image;
  let pixmap: ReturnType<Image["toPixmap"]>;
  try {
    image = new mupdf.Image(bytes);
    // Decode now: a truncated or corrupt file fails here, as a 422.
    pixmap = image.toPixmap();
  } catch (err) {
    throw asEngineError(err, "invalid_input", "The watermark image could not be decoded");
  }
  try {
    const w = image.getWidth();
    const h = image.getHeight();
    if (Math.max(w, h) <= MAX_STAMP_SIDE) return image;
    const k = MAX_STAMP_SIDE / Math.max(w, h);
    const small = downscale(mupdf, image, Math.max(1, Math.round(w * k)), Math.max(1, Math.round(h * k)), pixmap.getAlpha() > 0);
    image.destroy();
    return small;
  } finally {
    pixmap.destroy();
  }
}

/**
 * A watermark bigger than MAX_STAMP_SIDE shrunk first by the image engine,
 * which reads and resamples it in bands (its memory bounded and reserved by
 * its own estimate), to a PNG of the size MuPDF would draw it at. MuPDF
 * decoding the original instead held about 16 bytes a pixel: a 2400 x 1200
 * stamp took its heap from 22 to 53 MB against a reservation of 8 MiB, and a
 * 16 MP one (a 60 KB PNG of one colour) to 263 MB (issue #31).
 */
export async function shrinkStamp(bytes: Uint8Array): Promise<Uint8Array> {
  const format = sniffStampImage(bytes);
  const size = format ? headerSize(bytes, format) : null;
  // Anything unreadable is for loadStampImage to refuse, with its own message.
  if (!size || size[0] * size[1] > MAX_STAMP_PIXELS || Math.max(size[0], size[1]) <= MAX_STAMP_SIDE) return bytes;
  let [w, h] = size;
  try {
    if (imageFacts(bytes).orientation >= 5) [w, h] = [h, w];
  } catch {
    return bytes;
  }
  const k = MAX_STAMP_SIDE / Math.max(w, h);
  try {
    const small = await resizeImage(bytes, { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)), format: "png", quality: 100 });
    return contiguous(small.bytes);
  } catch (err) {
    if (err instanceof EngineError) throw new EngineError("invalid_input", `The watermark image could not be decoded: ${err.message}`);
    throw err;
  }
}

function downscale(mupdf: Mupdf, image: Image, w: number, h: number, alpha: boolean): Image {
  const target = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, w, h], alpha);
  try {
    target.clear(alpha ? 0 : 255);
    const device = new mupdf.DrawDevice([1, 0, 0, 1, 0, 0], target);
    device.fillImage(image, [w, 0, 0, h, 0, 0], 1);
    device.close();
    device.destroy();
    return new mupdf.Image(target);
  } finally {
    target.destroy();
  }
}
