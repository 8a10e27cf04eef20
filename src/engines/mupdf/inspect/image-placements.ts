import type { Image, PDFObject } from "mupdf";
import type { Mupdf } from "../core/loader";
import type { PDFDocument } from "../core/document";
import { loadImage } from "../core/load-image";

/** An image XObject and the lowest resolution it is shown at anywhere in the document. */
export interface ImageUse {
  ref: PDFObject;
  /** Pixels per inch along the less dense axis, at the largest placement. */
  dpi: number;
  /** 0-based pages that show it. */
  pages: number[];
}

// Resources nest: Form XObjects carry their own. Deeply nested or cyclic
// forms (fuzzed files) stop the walk rather than the request.
const MAX_FORM_DEPTH = 12;

export function collectImageRefs(res: PDFObject, out: Map<number, PDFObject>, seen: Set<number>, depth: number): void {
  if (depth > MAX_FORM_DEPTH || !res.isDictionary()) return;
  const xobjects = res.get("XObject");
  if (!xobjects.isDictionary()) return;
  xobjects.forEach((value) => {
    if (!value.isIndirect()) return;
    const num = value.asIndirect();
    if (seen.has(num)) return;
    seen.add(num);
    const subtype = value.get("Subtype");
    const kind = subtype.isName() ? subtype.asName() : "";
    if (kind === "Image") out.set(num, value);
    else if (kind === "Form") collectImageRefs(value.get("Resources"), out, seen, depth + 1);
  });
}

/**
 * Where each image is drawn and how large: the page is run through a
 * recording device (no rasterising), which sees every placement with its
 * transform. MuPDF hands the device the same cached fz_image that
 * `loadImage(ref)` returns, so pointers tie placements to objects. Images
 * the device never matched (store evicted, annotation appearances, patterns)
 * are left out: they are not recompressed.
 */
export function findImageUses(mupdf: Mupdf, doc: PDFDocument): Map<number, ImageUse> {
  const uses = new Map<number, ImageUse>();
  const pages = doc.countPages();
  for (let index = 0; index < pages; index++) {
    const page = doc.loadPage(index);
    const drawn = new Map<number, number>();
    const held: Image[] = [];
    const device = new mupdf.Device({
      fillImage(image, ctm) {
        held.push(image); // keeps the pointer alive and unique while matching
        const inchesW = Math.hypot(ctm[0], ctm[1]) / 72;
        const inchesH = Math.hypot(ctm[2], ctm[3]) / 72;
        const dpi = Math.min(image.getWidth() / Math.max(inchesW, 1e-6), image.getHeight() / Math.max(inchesH, 1e-6));
        drawn.set(image.pointer, Math.min(drawn.get(image.pointer) ?? Infinity, dpi));
      },
    });
    try {
      if (!runQuietly(() => page.run(device, mupdf.Matrix.identity))) continue;
      device.close();
      const refs = new Map<number, PDFObject>();
      collectImageRefs(page.getObject().getInheritable("Resources"), refs, new Set(), 0);
      for (const [num, ref] of refs) matchUse(mupdf, doc, uses, drawn, num, ref, index);
    } finally {
      device.destroy();
      for (const image of held) image.destroy();
      page.destroy();
    }
  }
  return uses;
}

function matchUse(mupdf: Mupdf, doc: PDFDocument, uses: Map<number, ImageUse>, drawn: Map<number, number>, num: number, ref: PDFObject, page: number): void {
  let image: Image;
  try {
    image = loadImage(mupdf, doc, ref);
  } catch {
    return; // an undecodable image is left exactly as it is
  }
  const dpi = drawn.get(image.pointer);
  image.destroy();
  if (dpi === undefined || !Number.isFinite(dpi)) return;
  const use = uses.get(num);
  if (use) {
    use.dpi = Math.min(use.dpi, dpi);
    if (!use.pages.includes(page)) use.pages.push(page);
  } else {
    uses.set(num, { ref, dpi, pages: [page] });
  }
}

/** A page whose content cannot be interpreted keeps its images untouched. */
function runQuietly(work: () => void): boolean {
  try {
    work();
    return true;
  } catch {
    return false;
  }
}
