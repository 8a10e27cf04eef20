import { withPdf } from "../mupdf/document";
import { readPages } from "./document";
import { dropFurniture } from "./furniture";
import { sheetsOf } from "./sheets";
import { writeXlsx } from "./xlsx";

export interface WorkbookResult {
  xlsx: Uint8Array;
  pages: number;
  tablesFound: number;
  sheets: number;
}

/** PDF tables to an .xlsx workbook (lattice, then stream, page by page). */
export function pdfToWorkbook(bytes: Uint8Array): Promise<WorkbookResult> {
  return withPdf(bytes, (doc, mupdf) => {
    const pages = dropFurniture(readPages(doc, mupdf));
    const { sheets, tablesFound } = sheetsOf(pages.map((page) => ({ page, tables: page.tables })));
    return { xlsx: writeXlsx(sheets), pages: pages.length, tablesFound, sheets: sheets.length };
  });
}
