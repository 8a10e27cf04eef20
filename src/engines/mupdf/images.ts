import type { Image, PDFObject } from "mupdf";
import { LIMITS } from "../../config";
import type { PDFDocument } from "./document";
import { encodeReplacement } from "./image-encode";
import { loadImage } from "./load-image";
import { reserveMemory } from "../../runtime/memory";
import type { ImageUse } from "./image-placements";
import type { Mupdf } from "./loader";

/** How one compression level treats photos and scans. */
export interface ImagePolicy {
  /** Resolution images are brought down to. */
  targetDpi: number;
  /** Downsample only above targetDpi * threshold (Ghostscript's idea: no resampling for a few percent). */
  threshold: number;
  /** MozJPEG quality 1..100. */
  quality: number;
  /** Keep a re-encoded JPEG only below this share of the old stream (JPEG sources). */
  keepBelowJpeg: number;
  /** Same for lossless sources (Flate, LZW...): lossy only when it pays clearly. */
  keepBelowLossless: number;
}

export interface ImageReport {
  examined: number;
  recompressed: number;
  bytesBefore: number;
  bytesAfter: number;
  /** 0-based pages showing at least one replaced image. */
  pages: Set<number>;
}

// Bi-level and special codecs are already small or carry semantics a JPEG
// would break (stencil masks, colour-key masks, JBIG2 symbol dictionaries).
const KEEP_FILTERS = new Set(["JBIG2Decode", "CCITTFaxDecode"]);
// Metadata on a replaced image describes the old encoding; Decode was applied while drawing.
const DROP_KEYS = ["DecodeParms", "Decode", "Metadata", "SMaskInData", "Alternates", "ImageMask"];
// Decoding is bounded before it starts: an image this large is left alone.
const MAX_SOURCE_PIXELS = LIMITS.imageMegapixels * 1_000_000;

function filters(ref: PDFObject): string[] {
  const f = ref.get("Filter");
  if (f.isName()) return [f.asName()];
  const out: string[] = [];
  if (f.isArray()) for (let i = 0; i < f.length; i++) if (f.get(i).isName()) out.push(f.get(i).asName());
  return out;
}

function eligibleDict(ref: PDFObject): boolean {
  const mask = ref.get("ImageMask");
  if (mask.isBoolean() && mask.asBoolean()) return false;
  if (ref.get("Mask").isArray()) return false;
  if (!ref.get("SMaskInData").isNull()) return false;
  return !filters(ref).some((f) => KEEP_FILTERS.has(f));
}

function eligibleImage(image: Image): boolean {
  const cs = image.getColorSpace();
  if (!cs || cs.isIndexed() || image.getBitsPerComponent() < 8) return false;
  if (!(cs.isGray() || cs.isRGB() || cs.isCMYK())) return false;
  return image.getWidth() * image.getHeight() <= MAX_SOURCE_PIXELS;
}

/**
 * A scale within 10% of 1/2, 1/4 or 1/8 becomes exactly that: MuPDF then
 * decodes JPEGs at that size directly (DCT scaling) with no second
 * resampling, which otherwise blurs scan grain (page SSIM at 150 dpi
 * 0.940 -> 0.950 on a 300 dpi scan brought to 150 dpi, measured).
 */
function snapScale(scale: number): number {
  for (const f of [1 / 2, 1 / 4, 1 / 8]) if (Math.abs(scale - f) <= 0.1 * f) return f;
  return scale;
}

function targetSize(image: Image, dpi: number, policy: ImagePolicy): [number, number] {
  const scale = dpi > policy.targetDpi * policy.threshold ? snapScale(policy.targetDpi / dpi) : 1;
  return [Math.max(1, Math.round(image.getWidth() * scale)), Math.max(1, Math.round(image.getHeight() * scale))];
}

function replaceStream(doc: PDFDocument, ref: PDFObject, jpeg: Uint8Array, width: number, height: number): void {
  for (const key of DROP_KEYS) ref.delete(key);
  ref.put("Width", width);
  ref.put("Height", height);
  ref.put("BitsPerComponent", 8);
  ref.put("ColorSpace", doc.newName("DeviceRGB"));
  ref.put("Filter", doc.newName("DCTDecode"));
  ref.writeRawStream(jpeg);
}

const MOZJPEG_HEAP = 17 * 1024 * 1024;

/**
 * What drawing one image costs the isolate, for the memory governor: MuPDF
 * decodes it whole, into a buffer of samples and then a pixmap of them (two
 * full-size copies, measured: a 300 dpi A4 scan of 26 MB grew MuPDF's heap by
 * 57 MB, whatever the target size), and MozJPEG's heap encodes the result.
 */
function decodeBytes(image: Image): number {
  return 2 * image.getWidth() * image.getHeight() * Math.max(1, image.getNumberOfComponents()) + MOZJPEG_HEAP;
}

async function recompressOne(mupdf: Mupdf, doc: PDFDocument, use: ImageUse, policy: ImagePolicy): Promise<[number, number] | null> {
  if (!eligibleDict(use.ref)) return null;
  const image = loadImage(mupdf, doc, use.ref);
  try {
    if (!eligibleImage(image)) return null;
    await reserveMemory(decodeBytes(image));
    const [width, height] = targetSize(image, use.dpi, policy);
    const before = use.ref.readRawStream();
    const oldLength = before.getLength();
    before.destroy();
    const jpeg = await encodeReplacement(mupdf, image, width, height, policy.quality);
    const lossless = !filters(use.ref).some((f) => f === "DCTDecode" || f === "JPXDecode");
    const keepBelow = lossless ? policy.keepBelowLossless : policy.keepBelowJpeg;
    if (jpeg.byteLength >= oldLength * keepBelow) return null;
    replaceStream(doc, use.ref, jpeg, width, height);
    return [oldLength, jpeg.byteLength];
  } finally {
    image.destroy();
  }
}

/** Downsamples and re-encodes photos and scans through MozJPEG, in place. */
export async function recompressImages(mupdf: Mupdf, doc: PDFDocument, uses: Map<number, ImageUse>, policy: ImagePolicy): Promise<ImageReport> {
  const report: ImageReport = { examined: 0, recompressed: 0, bytesBefore: 0, bytesAfter: 0, pages: new Set() };
  for (const use of uses.values()) {
    report.examined++;
    let sizes: [number, number] | null;
    try {
      sizes = await recompressOne(mupdf, doc, use, policy);
    } catch {
      sizes = null; // an image MuPDF cannot decode stays as it was
    }
    // Decoded images stay in MuPDF's store (up to 256 MB) unless dropped; the WASM heap never gives memory back.
    mupdf.emptyStore();
    if (!sizes) continue;
    report.recompressed++;
    report.bytesBefore += sizes[0];
    report.bytesAfter += sizes[1];
    for (const p of use.pages) report.pages.add(p);
  }
  return report;
}
