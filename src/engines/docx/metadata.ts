import { isoDateToIso } from "../text/pdf-date";
import { textStats } from "../text/stats";
import { decodeEntities } from "../text/xmp";
import { EMPTY_FACTS, splitKeywords, type DocumentFacts } from "../text/facts";
import { docxBodyText, docxPageBreaks } from "./body-text";
import { readDocxParts } from "./package";

const CORE = "docProps/core.xml";
const APP = "docProps/app.xml";
const DOCUMENT = "word/document.xml";

function element(xml: string | undefined, qname: string): string | null {
  if (!xml) return null;
  const m = new RegExp(`<${qname}(?:\\s[^>]*)?>([\\s\\S]*?)</${qname}>`).exec(xml);
  const value = m ? decodeEntities(m[1]).trim() : "";
  return value === "" ? null : value;
}

/** Distinct images the body shows (DrawingML a:blip and legacy VML v:imagedata references). */
function countImages(documentXml: string): number {
  const ids = new Set<string>();
  for (const m of documentXml.matchAll(/<a:blip\s[^>]*r:embed="([^"]+)"|<v:imagedata\s[^>]*r:id="([^"]+)"/g)) ids.add(m[1] ?? m[2]);
  return ids.size;
}

/**
 * DOCX metadata: docProps/core.xml for the descriptive fields, the body for
 * words and characters, docProps/app.xml for the page count Word last laid
 * out (a DOCX has no fixed pages); without it, explicit page breaks + 1.
 */
export function readDocxFacts(bytes: Uint8Array): DocumentFacts {
  const parts = readDocxParts(bytes, [CORE, APP, DOCUMENT]);
  const core = parts.get(CORE);
  const body = parts.get(DOCUMENT) ?? "";
  const laidOut = Number.parseInt(element(parts.get(APP), "Pages") ?? "", 10);
  return {
    ...EMPTY_FACTS,
    pages: Number.isFinite(laidOut) && laidOut > 0 ? laidOut : docxPageBreaks(body) + 1,
    title: element(core, "dc:title"),
    author: element(core, "dc:creator"),
    subject: element(core, "dc:subject"),
    keywords: splitKeywords(element(core, "cp:keywords")),
    imageCount: countImages(body),
    text: textStats(docxBodyText(body)),
    creationDate: isoDateToIso(element(core, "dcterms:created")),
    modificationDate: isoDateToIso(element(core, "dcterms:modified")),
  };
}
