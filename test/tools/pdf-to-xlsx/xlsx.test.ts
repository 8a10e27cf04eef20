import { describe, expect, it } from "vitest";
import { cellValue } from "../../../src/engines/layout/cell-values";
import { safeSheetNames } from "../../../src/engines/layout/xlsx";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { download, file, postForm, problem, withKey } from "../../support/http";
import { expectMetering } from "../../support/metering";
import { corruptPdf, encryptedPdf, layoutPdf } from "../../support/pdf.mjs";
import { readXlsx, textGrid } from "./read-xlsx";
import type { Answer } from "../../support/answers";

const PATH = "/api/v1/pdf/to-xlsx";
type Rule = { rule: [number, number, number, number] };

type XlsxBody = Answer<"pdf-to-xlsx">;

/** A ruled table: `rows` of cell texts, 80 pt columns from x = 72, 20 pt rows from `top`. */
function ruled(rows: string[][], top: number) {
  const cols = rows[0].length;
  const [x0, x1, y1] = [72, 72 + cols * 80, top + rows.length * 20];
  const rules: Rule[] = [
    ...rows.map((_, r) => ({ rule: [x0, top + r * 20, x1, top + r * 20] as Rule["rule"] })),
    { rule: [x0, y1, x1, y1] },
    ...Array.from({ length: cols + 1 }, (_, c) => ({ rule: [x0 + c * 80, top, x0 + c * 80, y1] as Rule["rule"] })),
  ];
  const texts = rows.flatMap((row, r) => row.map((text, c) => ({ text, x: x0 + c * 80 + 4, y: top + r * 20 + 14, size: 10 })));
  return [...rules, ...texts];
}

const SALES = [
  ["Region", "Units", "Revenue", "Share", "Change", "Closed"],
  ["North", "1,234", "$5,600.50", "12.5%", "(300)", "2024-03-15"],
  ["South", "98", "$70.00", "7%", "-12", "15/03/2024"],
  ["Zip 00123", "00123", "€1.5", "0.5%", "4.25", "n/a"],
];

async function convert(pdf: Uint8Array, name = "report.pdf") {
  const { key } = await accountWithKey({ credits: 10_000 });
  const res = await postForm(PATH, { file: file(pdf, name) }, withKey(key));
  const body = (await res.json()) as XlsxBody;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { body, book: readXlsx(await download(body.url)) };
}

describe("PDF to Excel: workbook", () => {
  it("writes one sheet per table, named by page and index, with typed cells that keep the display", async () => {
    const pdf = await layoutPdf([
      [...ruled(SALES, 100), { text: "A closing sentence after the table.", x: 72, y: 300 }],
      [
        ...ruled(
          [
            ["A", "B"],
            ["1", "2"],
          ],
          100,
        ),
      ],
    ]);
    const { body, book } = await convert(pdf);
    expect(body).toMatchObject({ success: true, tables_found: 2, sheets: 2, pages: 2, credits_charged: 40 });
    expect(book.sheets.map((s) => s.name)).toEqual(["Page 1 Table 1", "Page 2 Table 1"]);
    expect(book.parts).toContain("[Content_Types].xml");
    const g = book.sheets[0].grid;
    // Header row stays text.
    expect(g[0].map((c) => c.type)).toEqual(["s", "s", "s", "s", "s", "s"]);
    expect(g[1][1]).toEqual({ type: "n", value: "1234", format: "#,##0" });
    expect(g[1][2]).toEqual({ type: "n", value: "5600.5", format: '"$"#,##0.00' });
    expect(g[1][3]).toEqual({ type: "n", value: "0.125", format: "0.0%" });
    expect(g[1][4]).toEqual({ type: "n", value: "-300", format: "0;(0)" });
    expect(g[1][5]).toEqual({ type: "n", value: "45366", format: "yyyy-mm-dd" });
    expect(g[2][4]).toEqual({ type: "n", value: "-12", format: "0" });
    expect(g[2][5]).toEqual({ type: "n", value: "45366", format: "dd/mm/yyyy" });
    // Leading zeros are an identifier, not a number.
    expect(g[3][1]).toEqual({ type: "s", value: "00123", format: null });
    expect(g[3][2]).toEqual({ type: "n", value: "1.5", format: '"€"0.0' });
    expect(g[3][5].type).toBe("s");
    expect(textGrid(book.sheets[1])).toEqual([
      ["A", "B"],
      ["1", "2"],
    ]);
  });

  it("falls back to one sheet of text per page when there is no table, and prose never becomes one", async () => {
    const prose = Array.from({ length: 6 }, (_, i) => ({ text: `Line ${i + 1} of ordinary prose that runs across the page.`, x: 72, y: 100 + i * 14 }));
    const { body, book } = await convert(await layoutPdf([prose, [{ text: "Second page.", x: 72, y: 100 }]]));
    expect(body).toMatchObject({ tables_found: 0, sheets: 2, pages: 2 });
    expect(book.sheets.map((s) => s.name)).toEqual(["Page 1", "Page 2"]);
    expect(textGrid(book.sheets[0])[0][0]).toBe("Line 1 of ordinary prose that runs across the page.");
    expect(textGrid(book.sheets[1])).toEqual([["Second page."]]);
  });

  it("charges 40 credits, refunds a failure, and is free to try anonymously", async () => {
    const pdf = await layoutPdf([ruled(SALES, 100)]);
    await expectMetering(
      PATH,
      async () => ({ file: file(pdf, "t.pdf") }),
      async () => ({ file: file(corruptPdf(), "t.pdf") }),
      40,
      "free",
    );
  });
});

describe("PDF to Excel: errors", () => {
  it("415 for a missing file or a non-.pdf name; 422 for encrypted and unknown engines; vision gated and refunded", async () => {
    const acct = await accountWithKey({ plan: "starter", credits: 1000 });
    const auth = withKey(acct.key);
    const pdf = await layoutPdf([ruled(SALES, 100)]);
    const expectCode = async (res: Response, status: number, code: string) => {
      expect(res.status).toBe(status);
      expect((await problem(res)).code).toBe(code);
    };
    await expectCode(await postForm(PATH, {}, auth), 415, "unsupported_media_type");
    await expectCode(await postForm(PATH, { file: file(pdf, "t.csv") }, auth), 415, "unsupported_media_type");
    await expectCode(await postForm(PATH, { file: file(await encryptedPdf(pdf), "t.pdf") }, auth), 422, "password_protected");
    await expectCode(await postForm(PATH, { file: file(pdf, "t.pdf"), engine: "magic" }, auth), 422, "validation_failed");
    await expectCode(await postForm(PATH, { file: file(pdf, "t.pdf"), engine: "vision" }, auth), 422, "ai_not_configured");
    expect(await balanceOf(acct.token)).toBe(1000);
    const free = await accountWithKey({ plan: "free", credits: 1000 });
    await expectCode(await postForm(PATH, { file: file(pdf, "t.pdf"), engine: "vision" }, withKey(free.key)), 403, "plan_required");
  });
});

describe("PDF to Excel: cell typing and sheet names", () => {
  it("types numbers, percentages, currency, parentheses and dates; leaves words and identifiers as text", () => {
    expect(cellValue("1,234,567")).toEqual({ kind: "number", value: 1234567, format: "#,##0" });
    expect(cellValue("-0.75")).toEqual({ kind: "number", value: -0.75, format: "0.00" });
    expect(cellValue("(1,200.5)")).toEqual({ kind: "number", value: -1200.5, format: "#,##0.0;(#,##0.0)" });
    expect(cellValue("£3")).toEqual({ kind: "number", value: 3, format: '"£"0' });
    expect(cellValue("3/4/2024")).toEqual({ kind: "number", value: 45355, format: "m/d/yyyy" });
    expect(cellValue("31.12.2023")).toEqual({ kind: "number", value: 45291, format: "dd.mm.yyyy" });
    for (const t of ["abc", "12 apples", "1.2.3", "0042", "2024-13-01", ""]) expect(cellValue(t).kind).toBe("text");
  });

  it("makes sheet names Excel accepts: 31 characters, no []:*?/\\, unique", () => {
    expect(safeSheetNames(["a/b", "x".repeat(40), "x".repeat(40), "A/B"])).toEqual(["a b", "x".repeat(31), `${"x".repeat(29)}~2`, "A B~2"]);
  });
});
