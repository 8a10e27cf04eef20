import { strToU8, zipSync } from "fflate";

// DOCX packages written by hand, XML part by XML part, so a test's document
// is its own truth: no DOCX library stands between what the test says the
// document holds and what the converter is given.

const W =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A run: its text, with run properties (`<w:b/>`, `<w:i/>`...) if any. */
export const run = (text: string, rPr = ""): string => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ""}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;

/** A paragraph of runs (or of one plain run, given a string), with paragraph properties if any. */
export const para = (content: string | string[], pPr = ""): string =>
  `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}${typeof content === "string" ? run(content) : content.join("")}</w:p>`;

export const styled = (style: string, text: string, pPr = ""): string => para(text, `<w:pStyle w:val="${style}"/>${pPr}`);

/** A list paragraph: numId 1 is the bulleted list of `NUMBERING`, numId 2 the decimal one. */
export const item = (numId: 1 | 2, text: string): string => para(text, `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="${numId}"/></w:numPr>`);

export const table = (rows: string[][]): string =>
  `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>${rows.map((r) => `<w:tr>${r.map((c) => `<w:tc>${para(c)}</w:tc>`).join("")}</w:tr>`).join("")}</w:tbl>`;

export const pageBreak = '<w:r><w:br w:type="page"/></w:r>';

/** The body's final section: page size in twentieths of a point, orientation as Word writes it. */
export const section = (w: number, h: number, orient?: "landscape" | "portrait"): string =>
  `<w:sectPr><w:pgSz w:w="${w}" w:h="${h}"${orient ? ` w:orient="${orient}"` : ""}/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>`;

export interface StyleSpec {
  id: string;
  name: string;
  /** Half-points. */
  size?: number;
  basedOn?: string;
  pPr?: string;
  isDefault?: boolean;
}

export function stylesXml(styles: StyleSpec[], docDefaultSize?: number): string {
  const defaults = docDefaultSize ? `<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="${docDefaultSize}"/></w:rPr></w:rPrDefault></w:docDefaults>` : "";
  const body = styles
    .map(
      (s) =>
        `<w:style w:type="paragraph"${s.isDefault ? ' w:default="1"' : ""} w:styleId="${s.id}"><w:name w:val="${s.name}"/>` +
        `${s.basedOn ? `<w:basedOn w:val="${s.basedOn}"/>` : ""}${s.pPr ? `<w:pPr>${s.pPr}</w:pPr>` : ""}` +
        `${s.size ? `<w:rPr><w:sz w:val="${s.size}"/><w:szCs w:val="${s.size}"/></w:rPr>` : ""}</w:style>`,
    )
    .join("");
  return `${XML}<w:styles ${W}>${defaults}${body}</w:styles>`;
}

/** numId 1: bullets; numId 2: "1.", "2.", ... */
export const NUMBERING =
  `${XML}<w:numbering ${W}>` +
  '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>' +
  '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>' +
  '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>';

/** A DOCX package of `body` (the content of w:body), with a styles and a numbering part when given. */
export function docxPackage(body: string, parts: { styles?: string; numbering?: string } = {}): Uint8Array {
  const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  const MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml";
  const overrides = [
    `<Override PartName="/word/document.xml" ContentType="${MAIN}.document.main+xml"/>`,
    parts.styles ? `<Override PartName="/word/styles.xml" ContentType="${MAIN}.styles+xml"/>` : "",
    parts.numbering ? `<Override PartName="/word/numbering.xml" ContentType="${MAIN}.numbering+xml"/>` : "",
  ].join("");
  const docRels = [
    parts.styles ? `<Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/>` : "",
    parts.numbering ? `<Relationship Id="rId2" Type="${REL}/numbering" Target="numbering.xml"/>` : "",
  ].join("");
  const files: Record<string, Uint8Array> = {
    "[Content_Types].xml": strToU8(
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`,
    ),
    "_rels/.rels": strToU8(
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    "word/document.xml": strToU8(`${XML}<w:document ${W}><w:body>${body}</w:body></w:document>`),
    "word/_rels/document.xml.rels": strToU8(
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${docRels}</Relationships>`,
    ),
  };
  if (parts.styles) files["word/styles.xml"] = strToU8(parts.styles);
  if (parts.numbering) files["word/numbering.xml"] = strToU8(parts.numbering);
  return zipSync(files);
}
