import type { CompressionLevel } from "../../../config";
import { withPdf, type PDFDocument } from "../core/document";
import { findImageUses } from "../inspect/image-placements";
import { type BandedChange, recompressImages, type ImagePolicy } from "./images";
import type { Mupdf } from "../core/loader";
import { declaresPdfA } from "../inspect/pdfa";
import { deflateMetadataStreams, dropAnnotations, dropMetadata, dropThumbnails, flattenForms } from "./strip";
import { SAVE } from "../core/save-options";

/**
 * What each level does to images. Everything else is lossless and the same
 * at every level: unused and duplicate objects (streams included) removed,
 * streams and fonts Flate-compressed, small objects packed into object
 * streams, fonts subset, thumbnails dropped, XMP deflated.
 *
 * - basic: only images above 300 dpi come down, to 200 dpi; JPEG quality 85.
 * - medium: images above 180 dpi come down to 150 dpi (Ghostscript /ebook's
 *   target); quality 78, the lowest that keeps page SSIM at 150 dpi >= 0.95
 *   on the bench's 300 dpi scans while staying smaller than /ebook.
 * - maximum: everything above 100 dpi comes down to 100 dpi; quality 60.
 */
export const LEVELS: Record<CompressionLevel, ImagePolicy> = {
  basic: { targetDpi: 200, threshold: 1.5, quality: 85, keepBelowJpeg: 0.9, keepBelowLossless: 0.5 },
  medium: { targetDpi: 150, threshold: 1.2, quality: 78, keepBelowJpeg: 0.9, keepBelowLossless: 0.6 },
  maximum: { targetDpi: 100, threshold: 1.0, quality: 60, keepBelowJpeg: 0.95, keepBelowLossless: 0.75 },
};

export interface CompressOptions {
  level: CompressionLevel;
  preserveMetadata: boolean;
  preserveAnnotations: boolean;
  preserveForms: boolean;
}

export interface CompressOutcome {
  data: Uint8Array;
  /** The rewrite was not smaller, so the input bytes are returned unchanged. */
  originalReturned: boolean;
  pages: number;
  /** 0-based pages whose rendering may differ (images replaced, annotations or fields removed). */
  changedPages: number[];
  imagesRecompressed: number;
  /** Images the level looked at: only images differ between levels, so with none a stronger level gains nothing. */
  imagesExamined: number;
  /** Big JPEGs re-encoded without MuPDF's decoder; quality is measured on them, not by rendering their pages. */
  bandedImages: BandedChange[];
}

function pagesWithAnnots(doc: PDFDocument, widgets: boolean): Set<number> {
  const out = new Set<number>();
  const pages = doc.countPages();
  for (let i = 0; i < pages; i++) {
    const annots = doc.findPage(i).get("Annots");
    if (!annots.isArray()) continue;
    for (let a = 0; a < annots.length; a++) {
      const subtype = annots.get(a).get("Subtype");
      const isWidget = subtype.isName() && subtype.asName() === "Widget";
      const isLink = subtype.isName() && subtype.asName() === "Link";
      if (widgets ? isWidget : !isWidget && !isLink) out.add(i);
    }
  }
  return out;
}

function applyOptions(doc: PDFDocument, opts: CompressOptions): Set<number> {
  const changed = new Set<number>();
  if (!opts.preserveForms) {
    pagesWithAnnots(doc, true).forEach((p) => changed.add(p));
    flattenForms(doc);
  }
  if (!opts.preserveAnnotations) {
    pagesWithAnnots(doc, false).forEach((p) => changed.add(p));
    dropAnnotations(doc);
  }
  if (opts.preserveMetadata) deflateMetadataStreams(doc, declaresPdfA(doc));
  else dropMetadata(doc);
  dropThumbnails(doc);
  return changed;
}

function subsetFonts(doc: PDFDocument): void {
  try {
    doc.subsetFonts();
  } catch {
    // a font MuPDF cannot parse is kept whole rather than failing the call
  }
}

async function rewrite(mupdf: Mupdf, doc: PDFDocument, opts: CompressOptions) {
  const changed = applyOptions(doc, opts);
  const report = await recompressImages(mupdf, doc, findImageUses(mupdf, doc), LEVELS[opts.level]);
  report.pages.forEach((p) => changed.add(p));
  subsetFonts(doc);
  const buf = doc.saveToBuffer(SAVE.compressed);
  try {
    return { data: buf.asUint8Array().slice(), changed, report };
  } finally {
    buf.destroy();
  }
}

/** Compresses a PDF at a level; never answers with more bytes than it was given. */
export async function compressDocument(bytes: Uint8Array, opts: CompressOptions): Promise<CompressOutcome> {
  return withPdf(bytes, async (doc, mupdf) => {
    const pages = doc.countPages();
    const { data, changed, report } = await rewrite(mupdf, doc, opts);
    if (data.byteLength >= bytes.byteLength) {
      return { data: bytes, originalReturned: true, pages, changedPages: [], imagesRecompressed: 0, imagesExamined: report.examined, bandedImages: [] };
    }
    return {
      data,
      originalReturned: false,
      pages,
      changedPages: [...changed].sort((a, b) => a - b),
      imagesRecompressed: report.recompressed,
      imagesExamined: report.examined,
      bandedImages: report.banded,
    };
  });
}
