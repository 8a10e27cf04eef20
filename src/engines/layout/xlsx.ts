import { zipSync } from "fflate";
import type { CellValue } from "./cell-values";

// A minimal SpreadsheetML (Office Open XML) writer: inline strings, numbers
// with custom formats, one worksheet per sheet. What Excel and LibreOffice
// need to open a file without a repair prompt: content types, relationships,
// a styles part whose cellXfs the cells index, unique sheet names of at most
// 31 characters without []:*?/\.

export interface Sheet {
  name: string;
  rows: CellValue[][];
}

const esc = (s: string) =>
  s
    // XML 1.0 forbids most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

export function columnName(index: number): string {
  let n = index + 1;
  let name = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

export function safeSheetNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((raw) => {
    const base = (raw.replace(/[[\]:*?/\\]/g, " ").trim() || "Sheet").slice(0, 31);
    let name = base;
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base.slice(0, 31 - String(i).length - 1)}~${i}`;
    used.add(name.toLowerCase());
    return name;
  });
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

function sheetXml(rows: CellValue[][], style: (format: string) => number): string {
  const out: string[] = [];
  rows.forEach((row, r) => {
    const cells = row
      .map((cell, c) => {
        const ref = `${columnName(c)}${r + 1}`;
        if (cell.kind === "number") return `<c r="${ref}" s="${style(cell.format)}"><v>${cell.value}</v></c>`;
        if (!cell.text) return "";
        return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${esc(cell.text)}</t></is></c>`;
      })
      .join("");
    if (cells) out.push(`<row r="${r + 1}">${cells}</row>`);
  });
  return `${XML}<worksheet xmlns="${NS}"><sheetData>${out.join("")}</sheetData></worksheet>`;
}

function stylesXml(formats: string[]): string {
  // Custom number formats start at id 164; style 0 is General.
  const numFmts = formats.map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${esc(f)}"/>`).join("");
  const xfs = formats.map((_, i) => `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join("");
  return (
    `${XML}<styleSheet xmlns="${NS}">` +
    (formats.length ? `<numFmts count="${formats.length}">${numFmts}</numFmts>` : "") +
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${formats.length + 1}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${xfs}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    "</styleSheet>"
  );
}

export function writeXlsx(sheets: Sheet[]): Uint8Array {
  const formats: string[] = [];
  const style = (format: string) => {
    let i = formats.indexOf(format);
    if (i < 0) i = formats.push(format) - 1;
    return i + 1;
  };
  const enc = new TextEncoder();
  const names = safeSheetNames(sheets.map((s) => s.name));
  const files: Record<string, Uint8Array> = {};
  sheets.forEach((s, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = enc.encode(sheetXml(s.rows, style));
  });
  const overrides = sheets
    .map(
      (_, i) =>
        `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join("");
  files["[Content_Types].xml"] = enc.encode(
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      `${overrides}</Types>`,
  );
  files["_rels/.rels"] = enc.encode(
    `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  files["xl/workbook.xml"] = enc.encode(
    `${XML}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets>${names.map((n, i) => `<sheet name="${esc(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("")}</sheets></workbook>`,
  );
  files["xl/_rels/workbook.xml.rels"] = enc.encode(
    `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join("") +
      `<Relationship Id="rId${sheets.length + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  );
  files["xl/styles.xml"] = enc.encode(stylesXml(formats));
  return zipSync(files, { level: 6 });
}
