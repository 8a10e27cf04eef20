import type { PDFObject } from "mupdf";
import { parseXmp, type XmpPacket } from "../../text/xmp";
import { EngineError } from "../../errors";
import { asEngineError, openPdfDocument, type PDFDocument } from "../core/document";
import { loadMupdf } from "../core/loader";

// Structural PDF/A check, not a certified validator (docs/reference/pdf-toolkit.md). It looks at
// what identifies a PDF/A file and what a reader needs to trust that claim:
//   - a catalog OutputIntents entry with a GTS_PDFA1 intent and an embedded
//     ICC profile, all intents sharing one profile (ISO 19005-2 6.2.3);
//   - a catalog XMP packet declaring pdfaid:part (and pdfaid:conformance for
//     parts 1 to 3) under the PDF/A identification namespace (6.7.11 / 6.6.4);
//   - for parts 1 to 3, Info dictionary entries that agree with their XMP
//     counterparts (ISO 19005-1 6.7.3).
// Fonts, colour spaces, transparency and ICC profile contents are beyond it.

const PDFAID_NS = "http://www.aiim.org/pdfa/ns/id/";

export interface PdfaReport {
  hasOutputIntent: boolean;
  hasXmpMetadata: boolean;
  part: number | null;
  conformance: string | null;
  likelyPdfA: boolean;
  /** Why likely_pdfa is false, one line per failed check (empty when true). */
  issues: string[];
}

// ISO 19005-1 6.1.3 and its successors: no encryption.
const ENCRYPTED = "The file is encrypted; PDF/A forbids encryption.";

/** Conformance levels each part defines (PDF/A-4 has none, or E/F for its variants). */
const CONFORMANCE: Record<number, string[]> = { 1: ["A", "B"], 2: ["A", "B", "U"], 3: ["A", "B", "U"], 4: ["E", "F"] };

/** Info key -> XMP property it must equal (ISO 19005-1 Table 1, dates left out). */
const INFO_TO_XMP: [string, string, string][] = [
  ["Title", "dc", "title"],
  ["Author", "dc", "creator"],
  ["Subject", "dc", "description"],
  ["Keywords", "pdf", "Keywords"],
  ["Creator", "xmp", "CreatorTool"],
  ["Producer", "pdf", "Producer"],
];

export function readCatalogXmp(doc: PDFDocument): XmpPacket | null {
  const md = doc.getTrailer().get("Root").get("Metadata");
  if (!md.isStream()) return null;
  const buf = md.readStream();
  try {
    return parseXmp(buf.asUint8Array().slice());
  } finally {
    buf.destroy();
  }
}

function declaration(xmp: XmpPacket | null): { part: number | null; conformance: string | null } {
  if (!xmp || xmp.namespace("pdfaid") !== PDFAID_NS) return { part: null, conformance: null };
  const part = Number.parseInt(xmp.text1("pdfaid", "part") ?? "", 10);
  const conformance = xmp.text1("pdfaid", "conformance")?.trim() || null;
  return { part: Number.isFinite(part) ? part : null, conformance };
}

/** True when the catalog XMP claims PDF/A (any part). */
export function declaresPdfA(doc: PDFDocument): boolean {
  try {
    return declaration(readCatalogXmp(doc)).part !== null;
  } catch {
    return false;
  }
}

function outputIntentIssues(intents: PDFObject): string[] {
  if (!intents.isArray() || intents.length === 0) return ["The catalog has no OutputIntents array."];
  const profiles = new Set<string>();
  let pdfa = false;
  for (let i = 0; i < intents.length; i++) {
    const intent = intents.get(i);
    const s = intent.get("S");
    const profile = intent.get("DestOutputProfile");
    if (profile.isStream()) profiles.add(profile.isIndirect() ? `ref:${profile.asIndirect()}` : `inline:${i}`);
    if (s.isName() && s.asName() === "GTS_PDFA1" && profile.isStream()) pdfa = true;
  }
  const issues: string[] = [];
  if (!pdfa) issues.push("No OutputIntent has S /GTS_PDFA1 with an embedded DestOutputProfile.");
  if (profiles.size > 1) issues.push("The OutputIntents point to different DestOutputProfile streams.");
  return issues;
}

function infoString(info: PDFObject, key: string): string | null {
  const v = info.get(key);
  return v.isString() ? v.asString() : null;
}

function infoIssues(doc: PDFDocument, xmp: XmpPacket): string[] {
  const info = doc.getTrailer().get("Info");
  if (!info.isDictionary()) return [];
  const issues: string[] = [];
  for (const [key, prefix, name] of INFO_TO_XMP) {
    const value = infoString(info, key);
    if (value === null || value === "") continue;
    const xmpValues = xmp.values(prefix, name);
    // dc:creator is a list; the Info Author must equal it as one string.
    const xmpValue = xmpValues === null ? null : name === "creator" ? xmpValues.join(", ") : xmpValues[0];
    if (xmpValue !== value) issues.push(`Info /${key} does not match XMP ${prefix}:${name}.`);
  }
  return issues;
}

function xmpIssues(doc: PDFDocument, xmp: XmpPacket | null, part: number | null, conformance: string | null): string[] {
  if (!xmp) return ["The catalog has no XMP metadata stream."];
  if (xmp.namespace("pdfaid") !== PDFAID_NS || part === null) return ["The XMP metadata does not declare pdfaid:part under the PDF/A identification schema."];
  const allowed = CONFORMANCE[part];
  if (!allowed) return [`pdfaid:part ${part} is not a PDF/A part (1 to 4).`];
  const issues: string[] = [];
  if (part < 4 && conformance === null) issues.push(`PDF/A-${part} requires pdfaid:conformance in the XMP metadata.`);
  else if (conformance !== null && !allowed.includes(conformance)) issues.push(`pdfaid:conformance ${conformance} is not defined for PDF/A-${part}.`);
  if (part < 4) issues.push(...infoIssues(doc, xmp));
  return issues;
}

export function inspectPdfA(doc: PDFDocument): PdfaReport {
  const root = doc.getTrailer().get("Root");
  if (!root.isDictionary()) throw new EngineError("corrupt", "The PDF has no document catalog.");
  const intents = root.get("OutputIntents");
  const xmpPresent = root.get("Metadata").isStream();
  let xmp: XmpPacket | null = null;
  try {
    xmp = readCatalogXmp(doc);
  } catch {
    xmp = null; // an undecodable metadata stream counts as no XMP
  }
  const { part, conformance } = declaration(xmp);
  const issues = [...outputIntentIssues(intents), ...xmpIssues(doc, xmp, part, conformance)];
  if (!doc.getTrailer().get("Encrypt").isNull()) issues.push(ENCRYPTED);
  return {
    hasOutputIntent: !intents.isNull(),
    hasXmpMetadata: xmpPresent,
    part,
    conformance,
    likelyPdfA: issues.length === 0,
    issues,
  };
}

/**
 * Opens and inspects. A file that needs a password cannot be PDF/A (and its
 * catalog cannot be read): it is reported as such rather than refused.
 */
export async function validatePdfA(bytes: Uint8Array): Promise<PdfaReport> {
  const mupdf = await loadMupdf();
  const doc = openPdfDocument(mupdf, bytes);
  try {
    if (doc.needsPassword()) {
      return { hasOutputIntent: false, hasXmpMetadata: false, part: null, conformance: null, likelyPdfA: false, issues: [ENCRYPTED] };
    }
    return inspectPdfA(doc);
  } catch (err) {
    throw asEngineError(err, "corrupt", "The PDF could not be read");
  } finally {
    doc.destroy();
    mupdf.emptyStore();
  }
}
