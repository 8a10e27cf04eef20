import { reserveMemory } from "../../../runtime/memory";
import { docxBodyText } from "../../docx/body-text";
import { readDocxParts } from "../../docx/package";
import { withPdf } from "../../mupdf/core/document";
import { readPageContent } from "../../mupdf/inspect/page-content";
import { ocrPage } from "../../ocr/page";
import { textSimilarity } from "../text-similarity";
import type { PageContent } from "./model";
import { ocrContent } from "./ocr-content";
import { planPage, type PagePlan } from "./page-plan";
import { writeDocx } from "./write-docx";

// PDF to DOCX from MuPDF's structured text ("mupdf-docx"): read each page,
// plan how Word should flow it, write one section per page. Scanned pages
// are read by OCR ("ocr-docx" when one was); the vision road plugs in beside
// this one (see ../vision.ts).

/** What `engine_used` answers when at least one page was read by OCR. */
export const OCR_DOCX_ENGINE = "ocr-docx";

const BASE_BYTES = 8 * 1024 * 1024;

/** Picture bytes one document may carry; later pictures are left out with a note (128 MB isolate). */
const MAX_PICTURE_BYTES = 32 * 1024 * 1024;

export interface DocxResult {
  docx: Uint8Array;
  pages: number;
  /** Dice word similarity of the DOCX's text to the PDF's text (text-similarity.ts), times the share of pages with a text layer. */
  similarity: number;
  /** Pages with no text layer and a page-sized picture (scans). */
  scannedPages: number;
  /** Scans whose text OCR found: they are written as text, without their picture. */
  ocrPages: number;
  notes: string[];
}

export async function pdfToDocx(bytes: Uint8Array): Promise<DocxResult> {
  const { plans, sourceText, scannedPages, ocrPages, ocrConfidence, notes, title } = await withPdf(bytes, async (doc, mupdf) => {
    const pages: PagePlan[] = [];
    const text: string[] = [];
    const notes: string[] = [];
    let pictureBytes = 0;
    let empty = 0;
    let read = 0;
    let confidence = 0;
    for (let i = 0; i < doc.countPages(); i++) {
      let content = readPageContent(mupdf, doc, i, pictureBytes < MAX_PICTURE_BYTES);
      if (!textOf(content).trim() && looksScanned(content)) {
        const ocr = await ocrPage(doc, mupdf, i);
        if (ocr.words.length) {
          content = ocrContent(ocr);
          read++;
          confidence += ocr.words.reduce((n, w) => n + w.confidence, 0) / ocr.words.length;
        } else empty++;
      }
      const before = pictureBytes;
      for (const b of content.blocks) if (b.kind === "image") pictureBytes += b.png.byteLength;
      // Pictures are held until the DOCX is written, and copied once into it: the isolate's budget grows with them.
      if (pictureBytes > before) await reserveMemory(BASE_BYTES + 4 * bytes.byteLength + 3 * pictureBytes);
      if (pictureBytes >= MAX_PICTURE_BYTES && !notes.length)
        notes.push(`pictures after page ${i + 1} were left out: the document's pictures pass ${MAX_PICTURE_BYTES >> 20} MB`);
      text.push(textOf(content));
      pages.push(planPage(content));
      mupdf.emptyStore();
    }
    return {
      plans: pages,
      sourceText: text.join("\n"),
      scannedPages: empty + read,
      ocrPages: read,
      ocrConfidence: confidence,
      notes,
      title: doc.getMetaData("info:Title") || undefined,
    };
  });
  const docx = await writeDocx(plans, title);
  const written = docxBodyText(readDocxParts(docx, ["word/document.xml"]).get("word/document.xml") ?? "");
  if (ocrPages) notes.push(`${ocrPages} scanned page(s) were read by OCR: written as text, without the scan's picture`);
  if (scannedPages > ocrPages) notes.push(`${scannedPages - ocrPages} scanned page(s) held no text OCR could read: their pictures are kept`);
  // A scan without readable text counts as lost; one read by OCR counts as much as OCR's mean word confidence on it.
  const textShare = (plans.length - scannedPages + ocrConfidence) / plans.length;
  const similarity = Math.round(textSimilarity(sourceText, written) * textShare * 10_000) / 10_000;
  return { docx, pages: plans.length, similarity, scannedPages, ocrPages, notes };
}

/** A page without text whose picture covers most of it: a scan, whose text OCR would find. */
function looksScanned(content: PageContent): boolean {
  const area = content.width * content.height;
  return content.blocks.some((b) => b.kind === "image" && (b.bbox[2] - b.bbox[0]) * (b.bbox[3] - b.bbox[1]) > area / 2);
}

function textOf(content: PageContent): string {
  const lines: string[] = [];
  for (const b of content.blocks) if (b.kind === "text") for (const l of b.lines) lines.push(l.glyphs.map((g) => g.c).join(""));
  return lines.join("\n");
}
