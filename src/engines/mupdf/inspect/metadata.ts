import type { PDFObject } from "mupdf";
import { LIMITS } from "../../../config";
import { EngineError } from "../../errors";
import { isoDateToIso, pdfDateToIso } from "../../text/pdf-date";
import { EMPTY_FACTS, splitKeywords, type DocumentFacts } from "../../text/facts";
import { NO_TEXT, addStats, textStats, type TextStats } from "../../text/stats";
import type { XmpPacket } from "../../text/xmp";
import { asEngineError, openPdfDocument, type PDFDocument } from "../core/document";
import { collectImageRefs } from "./image-placements";
import type { Mupdf } from "../core/loader";
import { readCatalogXmp } from "./pdfa";

function info(doc: PDFDocument, key: string): string | null {
  const v = doc.getMetaData(`info:${key}`);
  return v && v.trim() !== "" ? v : null;
}

function safeXmp(doc: PDFDocument): XmpPacket | null {
  try {
    return readCatalogXmp(doc);
  } catch {
    return null;
  }
}

function describe(doc: PDFDocument) {
  const xmp = safeXmp(doc);
  const creators = xmp?.values("dc", "creator");
  const xmpKeywords = xmp?.text1("pdf", "Keywords") ?? xmp?.values("dc", "subject")?.join(", ") ?? null;
  return {
    title: info(doc, "Title") ?? xmp?.text1("dc", "title") ?? null,
    author: info(doc, "Author") ?? (creators?.length ? creators.join(", ") : null),
    subject: info(doc, "Subject") ?? xmp?.text1("dc", "description") ?? null,
    keywords: splitKeywords(info(doc, "Keywords") ?? xmpKeywords),
    creationDate: pdfDateToIso(info(doc, "CreationDate")) ?? isoDateToIso(xmp?.text1("xmp", "CreateDate")),
    modificationDate: pdfDateToIso(info(doc, "ModDate")) ?? isoDateToIso(xmp?.text1("xmp", "ModifyDate")),
  };
}

/** Distinct image XObjects the pages use (through nested forms too); inline images are not objects and not counted. */
function countImages(doc: PDFDocument, pages: number): number {
  const images = new Map<number, PDFObject>();
  const seen = new Set<number>();
  for (let i = 0; i < pages; i++) collectImageRefs(doc.findPage(i).getInheritable("Resources"), images, seen, 0);
  return images.size;
}

function pageText(doc: PDFDocument, index: number): TextStats {
  const page = doc.loadPage(index);
  try {
    const st = page.toStructuredText("preserve-whitespace");
    try {
      return textStats(st.asText());
    } finally {
      st.destroy();
    }
  } catch {
    return NO_TEXT; // a page whose content cannot be read contributes no words
  } finally {
    page.destroy();
  }
}

/**
 * Metadata and counts of a PDF. An encrypted file (whether or not it needs a
 * password to open) answers is_encrypted with zeroed counts, rather than an
 * error (docs/reference/pdf-toolkit.md, PDF metadata); nothing is decrypted.
 */
export function readPdfFacts(mupdf: Mupdf, bytes: Uint8Array): DocumentFacts {
  const doc = openPdfDocument(mupdf, bytes);
  try {
    if (doc.needsPassword() || doc.getMetaData("encryption") !== "None") return { ...EMPTY_FACTS, isEncrypted: true };
    const pages = doc.countPages();
    if (pages === 0) throw new EngineError("corrupt", "The PDF has no readable pages.");
    if (pages > LIMITS.pdfPages) throw new EngineError("too_large", `The PDF has ${pages} pages; at most ${LIMITS.pdfPages} are read per call.`);
    let text = NO_TEXT;
    for (let i = 0; i < pages; i++) text = addStats(text, pageText(doc, i));
    return { ...EMPTY_FACTS, ...describe(doc), pages, imageCount: countImages(doc, pages), text };
  } catch (err) {
    throw asEngineError(err, "corrupt", "The PDF could not be read");
  } finally {
    doc.destroy();
    mupdf.emptyStore();
  }
}
