import { cellValue, type CellValue } from "./cell-values";
import { readingOrder } from "./order";
import type { RawPage, Table } from "./types";
import type { Sheet } from "./xlsx";

// Tables and pages to sheets: pure functions over the page model.

export interface PageTables {
  page: RawPage;
  tables: Table[];
}

/**
 * One sheet per table named by page and index ("Page 2 Table 1"); with no
 * table anywhere, one sheet per page holding its text lines (the per-page
 * text fallback of docs/tools/pdf-to-markdown.md, PDF to Excel).
 */
export function sheetsOf(pages: PageTables[]): { sheets: Sheet[]; tablesFound: number } {
  const tables = pages.flatMap(({ page, tables }) => readingOrder(tables).map((table, i) => ({ page: page.index, index: i, table })));
  if (tables.length)
    return { sheets: tables.map((t) => ({ name: `Page ${t.page + 1} Table ${t.index + 1}`, rows: typedRows(t.table) })), tablesFound: tables.length };
  return { sheets: pages.map(({ page }) => ({ name: `Page ${page.index + 1}`, rows: pageText(page) })), tablesFound: 0 };
}

/** Header rows stay text ("2024" over a column is a label); body cells are typed. */
export function typedRows(table: Table): CellValue[][] {
  const header = headerRows(table);
  return table.rows.map((row, r) => row.map((cell) => (r < header ? { kind: "text", text: cell.trim() } : cellValue(cell))));
}

/**
 * The header: leading rows of text only (at most three), or at least the
 * first row when it holds any text ("Region | 2023 | 2024" labels columns).
 */
function headerRows(table: Table): number {
  const isText = (c: string) => c.trim() !== "" && cellValue(c).kind === "text";
  let n = 0;
  while (n < Math.min(3, table.rows.length - 1) && table.rows[n].some(isText) && table.rows[n].every((c) => !c.trim() || isText(c))) n++;
  return n || (table.rows[0]?.some(isText) ? 1 : 0);
}

function pageText(page: RawPage): CellValue[][] {
  return readingOrder(page.lines).map((l) => [
    {
      kind: "text",
      text: l.spans
        .map((s) => s.text)
        .join("")
        .trim(),
    },
  ]);
}
