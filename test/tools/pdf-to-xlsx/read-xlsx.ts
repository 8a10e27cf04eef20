import { unzipSync } from "fflate";

// An independent reader for the tests: unzip, then read the XML parts with
// regular expressions (no code shared with the writer), enough to check
// names, cell types, values and number formats.

export interface XlsxCell {
  type: "s" | "n";
  value: string;
  format: string | null;
}

export interface XlsxSheet {
  name: string;
  /** row -> col -> cell, 0-based. */
  grid: XlsxCell[][];
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

function colIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function readXlsx(bytes: Uint8Array): { sheets: XlsxSheet[]; parts: string[] } {
  const files = unzipSync(bytes);
  const text = (name: string) => new TextDecoder().decode(files[name]);
  const formats = new Map<number, string>();
  for (const m of text("xl/styles.xml").matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"\/>/g)) formats.set(Number(m[1]), unescapeXml(m[2]));
  const xfs = [...(/<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(text("xl/styles.xml"))?.[1] ?? "").matchAll(/<xf numFmtId="(\d+)"/g)].map((m) => Number(m[1]));
  const rels = new Map([...text("xl/_rels/workbook.xml.rels").matchAll(/Id="(rId\d+)"[^>]*Target="([^"]+)"/g)].map((m) => [m[1], m[2]]));
  const sheets = [...text("xl/workbook.xml").matchAll(/<sheet name="([^"]*)" sheetId="\d+" r:id="(rId\d+)"\/>/g)].map((m) => {
    const xml = text(`xl/${rels.get(m[2])}`);
    const grid: XlsxCell[][] = [];
    for (const c of xml.matchAll(/<c r="([A-Z]+)(\d+)"([^>]*)>(.*?)<\/c>/gs)) {
      const [row, col] = [Number(c[2]) - 1, colIndex(c[1])];
      const attrs = c[3];
      const style = Number(/s="(\d+)"/.exec(attrs)?.[1] ?? 0);
      const inline = /t="inlineStr"/.test(attrs);
      const value = inline ? unescapeXml(/<t[^>]*>(.*?)<\/t>/s.exec(c[4])?.[1] ?? "") : (/<v>(.*?)<\/v>/.exec(c[4])?.[1] ?? "");
      grid[row] ??= [];
      grid[row][col] = { type: inline ? "s" : "n", value, format: formats.get(xfs[style]) ?? null };
    }
    return { name: unescapeXml(m[1]), grid };
  });
  return { sheets, parts: Object.keys(files) };
}

/**
 * What a spreadsheet shows for a number under the number formats the
 * workbooks use: grouping, decimals, percent, a quoted currency prefix,
 * parentheses for negatives, and dates (yyyy, mm, m, dd, d).
 */
export function displayed(cell: XlsxCell): string {
  if (cell.type === "s" || !cell.format) return cell.value;
  if (/[ymd]/.test(cell.format)) return dateShown(Number(cell.value), cell.format);
  const [positive, negative] = cell.format.split(";");
  let value = Number(cell.value);
  const percent = positive.includes("%");
  if (percent) value *= 100;
  const decimals = /\.(0+)/.exec(positive)?.[1].length ?? 0;
  const digits = Math.abs(value).toFixed(decimals);
  const [int, frac] = digits.split(".");
  const grouped = positive.includes("#,##0") ? int.replace(/\B(?=(\d{3})+(?!\d))/g, ",") : int;
  const prefix = /^"([^"]*)"/.exec(positive)?.[1] ?? "";
  const body = `${prefix}${grouped}${frac ? `.${frac}` : ""}${percent ? "%" : ""}`;
  if (value < 0) return negative ? `(${body})` : `-${body}`;
  return body;
}

/** Cell texts of a sheet as a plain grid, numbers as displayed ("" for empty cells). */
export const textGrid = (sheet: XlsxSheet): string[][] => {
  // The grid is sparse (empty rows and cells are not written): no spread over holes.
  let width = 0;
  for (let r = 0; r < sheet.grid.length; r++) width = Math.max(width, sheet.grid[r]?.length ?? 0);
  return Array.from({ length: sheet.grid.length }, (_, r) =>
    Array.from({ length: width }, (_, c) => {
      const cell = sheet.grid[r]?.[c];
      return cell ? displayed(cell) : "";
    }),
  );
};

function dateShown(serial: number, format: string): string {
  const d = new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000);
  const parts: Record<string, string> = {
    yyyy: String(d.getUTCFullYear()),
    mm: String(d.getUTCMonth() + 1).padStart(2, "0"),
    m: String(d.getUTCMonth() + 1),
    dd: String(d.getUTCDate()).padStart(2, "0"),
    d: String(d.getUTCDate()),
  };
  return format.replace(/yyyy|mm|m|dd|d/g, (t) => parts[t]);
}
