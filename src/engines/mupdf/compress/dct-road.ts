import type { Image, PDFObject } from "mupdf";
import { imageFacts, jpegComponents, resizeImage } from "../../images";
import { contiguous } from "../../bytes";

// Big JPEG images in a PDF (page scans) are re-encoded without MuPDF's
// decoder. MuPDF decodes an image whole, into a buffer of samples and then a
// pixmap (a 300 dpi A4 colour scan grew its heap by 57 MB, and MuPDF's heap
// never shrinks), so compressing one scan took the isolate to 119 MiB. The
// image tools' JPEG reader decodes band by band, at 1/2, 1/4 or 1/8 scale
// straight from the DCT coefficients when the target allows, and writes the
// bands into one JPEG: the same scan peaks far lower. It is slower than
// MuPDF's C decoder, so small images keep MuPDF's road.

/** Decoded RGB bytes above which a JPEG image takes the banded road (about 2.8 MP in colour). */
export const BANDED_DCT_MIN_BYTES = 8 * 1024 * 1024;

/** Which road each recompressed PDF image took, since the isolate started (tests and the runtime report read it). */
export const pdfImageRoads = { mupdf: 0, banded_jpeg: 0 };

function onlyFilter(ref: PDFObject): string | null {
  const f = ref.get("Filter");
  if (f.isName()) return f.asName();
  if (f.isArray() && f.length === 1 && f.get(0).isName()) return f.get(0).asName();
  return null;
}

/**
 * The banded reader draws a JPEG as a viewer would only when nothing in the
 * PDF changes its meaning: a plain DCTDecode stream (no Decode array, no
 * ColorTransform override) in grey or RGB, without an EXIF rotation (PDF
 * viewers ignore EXIF; our reader would apply it).
 */
export function takesBandedRoad(ref: PDFObject, image: Image, raw: Uint8Array): boolean {
  if (image.getWidth() * image.getHeight() * 3 < BANDED_DCT_MIN_BYTES) return false;
  if (onlyFilter(ref) !== "DCTDecode") return false;
  if (!ref.get("Decode").isNull() || !ref.get("DecodeParms").isNull()) return false;
  const cs = image.getColorSpace();
  if (!cs || !(cs.isGray() || cs.isRGB())) return false;
  try {
    const facts = imageFacts(raw);
    return facts.format === "jpeg" && facts.orientation === 1 && facts.width === image.getWidth() && facts.height === image.getHeight();
  } catch {
    return false; // not a JPEG our reader accepts: MuPDF's road decides
  }
}

/** The JPEG at width x height through the image tools' banded reader; null when that reader cannot take it. */
export async function reencodeBanded(raw: Uint8Array, width: number, height: number, quality: number): Promise<{ jpeg: Uint8Array; gray: boolean } | null> {
  try {
    const out = await resizeImage(raw, { width, height, format: "jpeg", quality, directDctScale: true });
    pdfImageRoads.banded_jpeg++;
    const jpeg = contiguous(out.bytes); // JPEG is written in one buffer: no copy
    return { jpeg, gray: jpegComponents(jpeg) === 1 };
  } catch {
    return null; // e.g. a sampling layout the reader does not decode: MuPDF's road
  }
}
