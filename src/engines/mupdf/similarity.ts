import { ssim } from "../quality/ssim";
import { openPdf, type PDFDocument } from "./document";
import { loadMupdf, type Mupdf } from "./loader";
import { renderGray } from "./render";

// Compress PDF's quality_score: the mean SSIM of pages rendered before and
// after. Rendering every page twice would cost more than compressing, so
// pages are sampled: up to MAX_CHANGED of those whose rendering can differ
// (an image replaced, annotations or fields removed) and up to
// MAX_UNCHANGED of the rest, which catch anything the lossless steps broke.
// Each group's mean is weighted by its share of the document's pages.
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

/**
 * Weighted mean page SSIM in [0, 1], rounded to 4 places; null when no
 * sampled page could be rendered (the caller then reports api.md's 0.9).
 */
export async function pageSimilarity(before: Uint8Array, after: Uint8Array, changedPages: number[]): Promise<number | null> {
  const mupdf = await loadMupdf();
  const a = openPdf(mupdf, before);
  try {
    const b = openPdf(mupdf, after);
    try {
      const total = a.countPages();
      const changedSet = new Set(changedPages);
      const unchanged = Array.from({ length: total }, (_, i) => i).filter((i) => !changedSet.has(i));
      const changed = [...changedSet].filter((i) => i < total);
      const groups = [
        { mean: changed.length ? meanSsim(mupdf, a, b, spread(changed, MAX_CHANGED)) : null, weight: changed.length },
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
