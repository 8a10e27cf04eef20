import { EngineError } from "../../errors";
import type { PDFDocument } from "../core/document";

type PDFObject = ReturnType<PDFDocument["newNull"]>;
type Box = [number, number, number, number];

export interface BlankSpec {
  /** Position in the page order (before blanks) the blank goes in front of; the order's length puts it at the end. */
  before: number;
  /** A size in points, or the position of the page whose displayed size it takes. */
  size: [number, number] | { like: number };
}

/** A margin in points, or a per cent of the page's width (left, right) or height (bottom, top). */
export interface Margin {
  value: number;
  percent: boolean;
}

export interface CropSpec {
  /** Left, bottom, right, top, as the page is displayed (after its /Rotate). */
  margins: [Margin, Margin, Margin, Margin];
  /** Output pages (0-based, blanks counted) it applies to. */
  pages: number[];
}

const normalised = (deg: number) => (((Math.round(deg / 90) * 90) % 360) + 360) % 360;

function pageRotation(page: PDFObject): number {
  const r = page.getInheritable("Rotate");
  return r.isNumber() ? normalised(r.asNumber()) : 0;
}

/** Adds each position's degrees to the page's own /Rotate (a page without one counts as 0). */
export function rotatePages(doc: PDFDocument, degrees: number[]): void {
  degrees.forEach((add, k) => {
    if (add === 0) return;
    const page = doc.findPage(k);
    page.put("Rotate", normalised(pageRotation(page) + add));
  });
}

function readBox(obj: PDFObject): Box | null {
  if (!obj.isArray() || obj.length !== 4) return null;
  const v = [0, 1, 2, 3].map((i) => obj.get(i).asNumber());
  if (v.some((n) => !Number.isFinite(n))) return null;
  return [Math.min(v[0], v[2]), Math.min(v[1], v[3]), Math.max(v[0], v[2]), Math.max(v[1], v[3])];
}

/** What a viewer shows of the page, unrotated: the crop box within the media box (MuPDF's rule; US Letter without either). */
function visibleBox(page: PDFObject): Box {
  const media = readBox(page.getInheritable("MediaBox")) ?? [0, 0, 612, 792];
  const crop = readBox(page.getInheritable("CropBox"));
  if (!crop) return media;
  const box: Box = [Math.max(media[0], crop[0]), Math.max(media[1], crop[1]), Math.min(media[2], crop[2]), Math.min(media[3], crop[3])];
  return box[2] > box[0] && box[3] > box[1] ? box : media;
}

function displayedSize(page: PDFObject): [number, number] {
  const [x0, y0, x1, y1] = visibleBox(page);
  return pageRotation(page) % 180 === 0 ? [x1 - x0, y1 - y0] : [y1 - y0, x1 - x0];
}

/**
 * Inserts the blank pages and answers where each page of the order ended up
 * (0-based). Blanks at one position keep the order they were asked in;
 * sizes are read before any blank goes in, so "like" names the order's pages.
 */
export function insertBlanks(doc: PDFDocument, blanks: BlankSpec[], count: number): number[] {
  const sized = blanks
    .map((b, i) => ({ before: b.before, i, size: "like" in b.size ? displayedSize(doc.findPage(b.size.like)) : b.size }))
    .sort((a, b) => a.before - b.before || a.i - b.i);
  sized.forEach((blank, j) => {
    const [w, h] = blank.size;
    doc.insertPage(blank.before + j, doc.addPage([0, 0, w, h], 0, doc.newDictionary(), ""));
  });
  let shift = 0;
  return Array.from({ length: count }, (_, k) => {
    while (shift < sized.length && sized[shift].before <= k) shift++;
    return k + shift;
  });
}

/**
 * Displayed left, bottom, right, top -> the unrotated page's sides: /Rotate
 * turns the page clockwise, so at 90 the page's left edge shows on top.
 */
function unrotated(m: CropSpec["margins"], rotation: number): CropSpec["margins"] {
  const [l, b, r, t] = m;
  if (rotation === 90) return [t, l, b, r];
  if (rotation === 180) return [r, t, l, b];
  if (rotation === 270) return [b, r, t, l];
  return m;
}

/** Sets /CropBox: the visible box less the margins. Content outside stays in the file; /MediaBox is unchanged. */
export function cropPages(doc: PDFDocument, crop: CropSpec): void {
  for (const index of crop.pages) {
    const page = doc.findPage(index);
    const [x0, y0, x1, y1] = visibleBox(page);
    const w = x1 - x0;
    const h = y1 - y0;
    const [l, b, r, t] = unrotated(crop.margins, pageRotation(page)).map((m, i) => (m.percent ? (m.value / 100) * (i % 2 === 0 ? w : h) : m.value));
    if (l + r >= w || b + t >= h) {
      throw new EngineError(
        "invalid_input",
        `crop: the margins leave nothing of output page ${index + 1}, whose visible area is ${round(w)} x ${round(h)} pt (before rotation).`,
      );
    }
    const box = doc.newArray();
    for (const v of [x0 + l, y0 + b, x1 - r, y1 - t]) box.push(round(v));
    page.put("CropBox", box);
  }
}

const round = (v: number) => Math.round(v * 1000) / 1000;
