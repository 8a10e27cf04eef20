import { greyPlane } from "../../images";
import { ssim } from "../../quality/ssim";
import type { BandedChange } from "./images";
import { openPdf, type PDFDocument } from "../core/document";
import { loadMupdf, type Mupdf } from "../core/loader";
import { renderGray } from "../render/render";

// Compress PDF's quality_score: the mean SSIM of pages rendered before and
// after. Rendering every page twice would cost more than compressing, so
// pages are sampled: up to MAX_CHANGED of those whose rendering can differ
// (an image replaced, annotations or fields removed) and up to
// MAX_UNCHANGED of the rest, which catch anything the lossless steps broke.
// Each group's mean is weighted by its share of the document's pages.
// A big JPEG that was re-encoded on the banded road (dct-road.ts) is not
// decoded by MuPDF here either, which would cost what that road avoids: in the
// original document (opened for this measure only, never saved) it is stood
// in for by the original picture resampled to the copy's size in bands
// (Lanczos3, in grey like the renders). On the tests' 300 dpi scans this
// reads 0.015 below a full-render SSIM: a slightly stricter score.
// 150 dpi, not screen resolution: rendering a 300 dpi scan and its 200 dpi
// copy down to 96 dpi aliases their grain differently, and SSIM then blames
// the copy for the renderer (0.94 at 96 dpi, 0.98 at 150 dpi, measured).

const DPI = 150;
const MAX_PIXELS = 2_500_000;
const MAX_CHANGED = 4;
const MAX_UNCHANGED = 2;

/** `count` indices spread evenly over `items` (first and last included). */
export function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  if (count <= 1) return items.slice(0, count);
  return Array.from({ length: count }, (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))]);
}

/** Mean SSIM over `pages`, skipping pages MuPDF cannot render; null when none could be. */
function meanSsim(mupdf: Mupdf, before: PDFDocument, after: PDFDocument, pages: number[]): number | null {
  let sum = 0;
  let measured = 0;
  for (const p of pages) {
    try {
      const a = renderGray(mupdf, before, p, DPI, MAX_PIXELS);
      const b = renderGray(mupdf, after, p, DPI, MAX_PIXELS);
      sum += a.width === b.width && a.height === b.height ? ssim(a, b) : 0;
      measured++;
    } catch {
      // a page whose content MuPDF cannot draw is not measured
    } finally {
      mupdf.emptyStore(); // decoded page images would otherwise pile up in the store
    }
  }
  return measured ? sum / measured : null;
}

/** Puts the original picture, resampled to the copy's size, in place of a big JPEG in the "before" document. */
async function standIn(mupdf: Mupdf, doc: PDFDocument, change: BandedChange): Promise<void> {
  const plane = await greyPlane(change.before, change.width, change.height);
  const ref = doc.newIndirect(change.object);
  for (const key of ["Filter", "DecodeParms", "Decode", "SMaskInData"]) ref.delete(key);
  ref.put("Width", change.width);
  ref.put("Height", change.height);
  ref.put("BitsPerComponent", 8);
  ref.put("ColorSpace", doc.newName("DeviceGray"));
  ref.writeStream(plane.data);
  mupdf.emptyStore();
}

/**
 * Weighted mean page SSIM in [0, 1], rounded to 4 places; null when no
 * sampled page could be rendered (the caller then reports the default 0.9,
 * docs/reference/pdf-toolkit.md).
 */
export async function pageSimilarity(before: Uint8Array, after: Uint8Array, changedPages: number[], banded: BandedChange[] = []): Promise<number | null> {
  const mupdf = await loadMupdf();
  const a = openPdf(mupdf, before);
  try {
    const b = openPdf(mupdf, after);
    try {
      const total = a.countPages();
      const changedSet = new Set(changedPages);
      const unchanged = Array.from({ length: total }, (_, i) => i).filter((i) => !changedSet.has(i));
      const changed = [...changedSet].filter((i) => i < total);
      const sampled = spread(changed, MAX_CHANGED);
      for (const change of banded) if (change.pages.some((p) => sampled.includes(p))) await standIn(mupdf, a, change);
      const groups = [
        { mean: changed.length ? meanSsim(mupdf, a, b, sampled) : null, weight: changed.length },
        { mean: unchanged.length ? meanSsim(mupdf, a, b, spread(unchanged, MAX_UNCHANGED)) : null, weight: unchanged.length },
      ].filter((g): g is { mean: number; weight: number } => g.mean !== null);
      const weight = groups.reduce((n, g) => n + g.weight, 0);
      if (!weight) return null;
      const score = groups.reduce((s, g) => s + g.mean * g.weight, 0) / weight;
      return Math.round(Math.max(0, Math.min(1, score)) * 10_000) / 10_000;
    } finally {
      b.destroy();
    }
  } finally {
    a.destroy();
    mupdf.emptyStore();
  }
}
