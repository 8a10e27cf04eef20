import { countByType, detectPii } from "../../pii/detect";
import type { EntityType, PiiMatch } from "../../pii/entity-types";
import { saveCopy, withPdf, type PDFDocument } from "../core/document";
import { loadMupdf, type Mupdf } from "../core/loader";
import { SAVE } from "../core/save-options";
import { verifyRemoval, type PageRedaction } from "./redact-verify";
import { indexPageText, lineQuads, type Quad } from "./text-index";

export interface RedactResult {
  data: Uint8Array;
  pages: number;
  /** Redaction boxes drawn: one per entity per text line it spans. */
  boxes: number;
  entities: Record<string, number>;
  /** The output was re-read: no text left under any box and no entity found again. */
  fullyRemoved: boolean;
  /** Where the boxes are (0-based page, MuPDF page space). */
  areas: PageRedaction[];
}

/**
 * Finds PII in each page's text and removes it with MuPDF redaction: the
 * glyphs are cut from the content stream (not covered), a black box marks
 * the place, and images and vector art are left alone (images are preserved:
 * docs/reference/pdf-stamps.md, Redact PII). The saved output is then opened again and checked.
 */
export async function redactPdf(bytes: Uint8Array, types: readonly EntityType[]): Promise<RedactResult> {
  const mupdf = await loadMupdf();
  const found: PiiMatch[] = [];
  const plan: PageRedaction[] = [];
  const { data, pages } = await withPdf(bytes, (doc) => {
    const count = doc.countPages();
    for (let i = 0; i < count; i++) {
      const quads = redactPage(mupdf, doc, i, types, found);
      if (quads.length) plan.push({ page: i, quads });
    }
    // garbage=compact drops the replaced content streams: the removed text
    // must not survive as an unreferenced object in the file.
    return { data: saveCopy(doc, SAVE.stamped), pages: count };
  });
  const fullyRemoved = plan.length === 0 || (await verifyRemoval(data, plan, types));
  return { data, pages, boxes: plan.reduce((n, p) => n + p.quads.length, 0), entities: countByType(found), fullyRemoved, areas: plan };
}

function redactPage(mupdf: Mupdf, doc: PDFDocument, index: number, types: readonly EntityType[], found: PiiMatch[]): Quad[] {
  const page = doc.loadPage(index);
  try {
    const text = indexPageText(page);
    const matches = detectPii(text.text, types);
    const quads: Quad[] = [];
    for (const m of matches) {
      const boxes = lineQuads(text, m.start, m.end);
      if (!boxes.length) continue;
      const annot = page.createAnnotation("Redact");
      annot.setQuadPoints(boxes);
      annot.update();
      quads.push(...boxes);
      found.push(m);
    }
    if (quads.length) {
      page.applyRedactions(true, mupdf.PDFPage.REDACT_IMAGE_NONE, mupdf.PDFPage.REDACT_LINE_ART_NONE, mupdf.PDFPage.REDACT_TEXT_REMOVE);
    }
    return quads;
  } finally {
    page.destroy();
  }
}
