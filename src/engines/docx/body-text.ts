import { decodeEntities } from "../text/xmp";

// Plain text of a WordprocessingML body in reading order: runs' w:t text,
// run-level tabs and breaks, one line per paragraph. Text boxes are nested
// paragraphs and come out where they are anchored; deleted text (w:delText)
// and field codes (w:instrText) are not text and are skipped, and so is
// mc:Fallback: the VML copy Word writes of every DrawingML text box, shape
// text a second time for readers that do not know the first.

const TOKENS = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:tab\/>|<w:(?:br|cr)(?:\s[^>]*)?\/>|<\/w:p>/g;

export function docxBodyText(documentXml: string): string {
  const start = documentXml.indexOf("<w:body");
  const body = (start >= 0 ? documentXml.slice(start) : documentXml).replace(/<mc:Fallback\b[\s\S]*?<\/mc:Fallback>/g, "");
  const out: string[] = [];
  for (let m = TOKENS.exec(body); m; m = TOKENS.exec(body)) {
    const token = m[0];
    if (m[1] !== undefined) out.push(decodeEntities(m[1]));
    else if (token === "<w:tab/>") out.push("\t");
    else out.push("\n");
  }
  TOKENS.lastIndex = 0;
  return out.join("");
}

/** Explicit page breaks (w:br w:type="page", w:pageBreakBefore) in the body. */
export function docxPageBreaks(documentXml: string): number {
  const breaks = documentXml.match(/<w:br\s[^>]*w:type="page"[^>]*\/>|<w:pageBreakBefore(?:\s+w:val="(?:1|true|on)")?\s*\/>/g);
  return breaks?.length ?? 0;
}
