import { withPdf } from "../mupdf/core/document";
import { ocrPage } from "../ocr/page";
import { type PageOcr, readPagesWithOcr } from "./document";
import { dropFurniture } from "./furniture";
import { sheetsOf } from "./sheets";
import { writeXlsx } from "./xlsx";

export interface WorkbookResult {
  xlsx: Uint8Array;
  pages: number;
  tablesFound: number;
  sheets: number;
}

/** PDF tables to an .xlsx workbook (lattice, then stream, page by page; scanned pages through OCR word boxes). */
export function pdfToWorkbook(bytes: Uint8Array, ocr: PageOcr = ocrPage): Promise<WorkbookResult> {
  return withPdf(bytes, async (doc, mupdf) => {
    const pages = dropFurniture(await readPagesWithOcr(doc, mupdf, ocr));
    const { sheets, tablesFound } = sheetsOf(pages.map((page) => ({ page, tables: page.tables })));
    return { xlsx: writeXlsx(sheets), pages: pages.length, tablesFound, sheets: sheets.length };
  });
}
