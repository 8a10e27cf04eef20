import type { Image, PDFObject } from "mupdf";
import { LIMITS } from "../../../config";
import type { PDFDocument } from "../core/document";
import { pdfImageRoads, reencodeBanded, takesBandedRoad } from "./dct-road";
import { encodeReplacement } from "./image-encode";
import { loadImage } from "../core/load-image";
import { reserveMemory } from "../../../runtime/memory";
import type { ImageUse } from "../inspect/image-placements";
import type { Mupdf } from "../core/loader";

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
  /** Images re-encoded on the banded road, kept to measure them without MuPDF decoding the original whole (similarity.ts). */
  banded: BandedChange[];
}

export interface BandedChange {
  /** The image's object number. */
  object: number;
  /** 0-based pages showing the image. */
  pages: number[];
  before: Uint8Array;
  after: Uint8Array;
  width: number;
  height: number;
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

function replaceStream(doc: PDFDocument, ref: PDFObject, jpeg: Uint8Array, width: number, height: number, gray: boolean): void {
  for (const key of DROP_KEYS) ref.delete(key);
  ref.put("Width", width);
  ref.put("Height", height);
  ref.put("BitsPerComponent", 8);
  ref.put("ColorSpace", doc.newName(gray ? "DeviceGray" : "DeviceRGB"));
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

function rawStream(ref: PDFObject): Uint8Array {
  const buf = ref.readRawStream();
  try {
    return buf.asUint8Array().slice();
  } finally {
    buf.destroy();
  }
}

/** The replacement JPEG: big plain JPEG sources through the banded reader (dct-road.ts), everything else drawn by MuPDF. */
async function replacement(mupdf: Mupdf, use: ImageUse, image: Image, raw: Uint8Array, width: number, height: number, quality: number) {
  if (takesBandedRoad(use.ref, image, raw)) {
    const banded = await reencodeBanded(raw, width, height, quality);
    if (banded) return { ...banded, banded: true };
  }
  await reserveMemory(decodeBytes(image));
  pdfImageRoads.mupdf++;
  return { jpeg: await encodeReplacement(mupdf, image, width, height, quality), gray: false, banded: false };
}

type Replaced = { before: number; after: number; banded?: BandedChange };

async function recompressOne(mupdf: Mupdf, doc: PDFDocument, object: number, use: ImageUse, policy: ImagePolicy): Promise<Replaced | null> {
  if (!eligibleDict(use.ref)) return null;
  const image = loadImage(mupdf, doc, use.ref);
  try {
    if (!eligibleImage(image)) return null;
    const [width, height] = targetSize(image, use.dpi, policy);
    const raw = rawStream(use.ref);
    const { jpeg, gray, banded } = await replacement(mupdf, use, image, raw, width, height, policy.quality);
    const lossless = !filters(use.ref).some((f) => f === "DCTDecode" || f === "JPXDecode");
    const keepBelow = lossless ? policy.keepBelowLossless : policy.keepBelowJpeg;
    if (jpeg.byteLength >= raw.byteLength * keepBelow) return null;
    replaceStream(doc, use.ref, jpeg, width, height, gray);
    const change = banded ? { object, pages: [...use.pages], before: raw, after: jpeg, width, height } : undefined;
    return { before: raw.byteLength, after: jpeg.byteLength, banded: change };
  } finally {
    image.destroy();
  }
}

/** Downsamples and re-encodes photos and scans through MozJPEG, in place. */
export async function recompressImages(mupdf: Mupdf, doc: PDFDocument, uses: Map<number, ImageUse>, policy: ImagePolicy): Promise<ImageReport> {
  const report: ImageReport = { examined: 0, recompressed: 0, bytesBefore: 0, bytesAfter: 0, pages: new Set(), banded: [] };
  for (const [object, use] of uses) {
    report.examined++;
    let replaced: Replaced | null;
    try {
      replaced = await recompressOne(mupdf, doc, object, use, policy);
    } catch {
      replaced = null; // an image MuPDF cannot decode stays as it was
    }
    // Decoded images stay in MuPDF's store (up to 256 MB) unless dropped; the WASM heap never gives memory back.
    mupdf.emptyStore();
    if (!replaced) continue;
    report.recompressed++;
    report.bytesBefore += replaced.before;
    report.bytesAfter += replaced.after;
    if (replaced.banded) report.banded.push(replaced.banded);
    for (const p of use.pages) report.pages.add(p);
  }
  return report;
}
