import { describe, expect, it } from "vitest";
import { accountWithKey } from "../../support/accounts";
import { download, file, postForm, withKey } from "../../support/http";
import { layoutPdf, scanOf } from "../../support/pdf.mjs";
import { displayed, readXlsx } from "./read-xlsx";

// PDF → Excel of a scanned table (lattice, stream, then OCR word boxes for
// scanned pages: docs/tools/pdf-to-markdown.md, PDF to Excel): the scan is read by OCR and its words go through
// the stream strategy like a text page's.

const ROWS = [
  ["Item", "Qty", "Price"],
  ["Chairs", "12", "450.00"],
  ["Tables", "3", "1,200.00"],
  ["Lamps", "8", "96.50"],
];

describe("PDF to Excel: scanned tables through OCR", () => {
  it("reads a borderless table off a scan into typed cells", async () => {
    const pdf = await layoutPdf([ROWS.flatMap((row, r) => row.map((text, c) => ({ text, x: 72 + c * 140, y: 120 + r * 24, size: 12 })))]);
    const { key } = await accountWithKey({ credits: 10_000 });
    const res = await postForm("/api/v1/pdf/to-xlsx", { file: file(await scanOf(pdf, { dpi: 200 }), "scan.pdf") }, withKey(key));
    const body = (await res.json()) as { tables_found: number; sheets: number; url: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ tables_found: 1, sheets: 1 });
    const [sheet] = readXlsx(await download(body.url)).sheets;
    expect(sheet.grid.map((row) => row.map(displayed))).toEqual(ROWS);
    // Figures are numbers, not text.
    expect(sheet.grid[2][2]).toMatchObject({ type: "n", value: "1200" });
  });
});
