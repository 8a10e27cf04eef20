import { type DocxStyles, inherited, onOff } from "./styles";

// Where Word starts a new page, written as the one mark an HTML reading
// keeps: a page-break run (w:br w:type="page"), which mammoth passes on to
// its style map (docx-html.ts maps it to a forced break). mammoth reads the
// run itself but not the two other ways a page is started:
// - w:pageBreakBefore, on the paragraph or its style (through w:basedOn);
//   Word ignores it inside tables (and text boxes), and so does this;
// - the end of a section (a w:sectPr in a paragraph's properties) whose
//   w:type is not "continuous": the next block starts on a new page.
// A single pass over the part's tags; the text between them is copied.

export const PAGE_BREAK_RUN = '<w:r><w:br w:type="page"/></w:r>';
const BREAK_PARAGRAPH = `<w:p>${PAGE_BREAK_RUN}</w:p>`;

const TAGS = /<w:p(?:\s[^>]*)?>|<\/w:p>|<w:tbl(?:\s[^>]*)?>|<\/w:tbl>/g;

/** The end of the w:pPr that starts at `at` (a w:pPrChange holds a w:pPr of its own). */
function pPrEnd(xml: string, at: number): number {
  const re = /<w:pPr(?:\s[^>]*)?>|<\/w:pPr>/g;
  re.lastIndex = at;
  let depth = 0;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    depth += m[0][1] === "/" ? -1 : 1;
    if (depth === 0) return m.index + m[0].length;
  }
  return -1;
}

/** The paragraph properties that open at `at`, without the tracked earlier version (w:pPrChange). */
function ownProperties(xml: string, at: number): { end: number; pPr: string } | null {
  if (!xml.startsWith("<w:pPr", at) || /^<w:pPr\s*\/>/.test(xml.slice(at, at + 12))) return null;
  const end = pPrEnd(xml, at);
  if (end < 0) return null;
  return { end, pPr: xml.slice(at, end).replace(/<w:pPrChange\b[\s\S]*?<\/w:pPrChange>/g, "") };
}

/** document.xml with a page-break run wherever Word starts a page that mammoth would not see. */
export function markPageBreaks(documentXml: string, styles: DocxStyles): string {
  const out: string[] = [];
  let copied = 0;
  let tables = 0;
  let paragraphs = 0;
  /** A section ended: the next block at the body's level starts a page. */
  let sectionEnded = false;
  const copyTo = (at: number) => {
    out.push(documentXml.slice(copied, at));
    copied = at;
  };
  for (let m = TAGS.exec(documentXml); m; m = TAGS.exec(documentXml)) {
    const tag = m[0];
    if (tag.startsWith("</w:tbl")) tables = Math.max(0, tables - 1);
    else if (tag.startsWith("</w:p")) paragraphs = Math.max(0, paragraphs - 1);
    else if (tag.startsWith("<w:tbl")) {
      if (sectionEnded && paragraphs === 0 && tables === 0) {
        copyTo(m.index);
        out.push(BREAK_PARAGRAPH);
        sectionEnded = false;
      }
      tables++;
    } else if (!tag.endsWith("/>")) {
      const topLevel = paragraphs === 0 && tables === 0;
      paragraphs++;
      const after = m.index + tag.length;
      const props = ownProperties(documentXml, after);
      const pPr = props?.pPr ?? "";
      const style = /<w:pStyle\s+w:val="([^"]*)"/.exec(pPr)?.[1] ?? styles.defaultId;
      // Paragraphs in tables and text boxes do not start pages.
      const before = topLevel && (sectionEnded || (onOff(pPr, "pageBreakBefore") ?? inherited(styles, style, "pageBreakBefore")));
      if (topLevel) sectionEnded = false;
      if (before) {
        const at = props ? props.end : after;
        copyTo(at);
        out.push(PAGE_BREAK_RUN);
      }
      const sect = /<w:sectPr\b[^>]*\/>|<w:sectPr\b[\s\S]*?<\/w:sectPr>/.exec(pPr)?.[0];
      if (sect && topLevel && !/<w:type\s+w:val="continuous"/.test(sect)) sectionEnded = true;
    }
  }
  TAGS.lastIndex = 0;
  if (!out.length) return documentXml;
  out.push(documentXml.slice(copied));
  return out.join("");
}
