import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { imagesOf, postFormWith, promptOf, script, stubEnv, stubModels, stubRequests } from "../../support/ai";
import { download, file, problem, withKey } from "../../support/http";
import { layoutPdf } from "../../support/pdf.mjs";
import { readXlsx, textGrid } from "./read-xlsx";
import type { Answer } from "../../support/answers";

// PDF to Excel with engine=vision (docs/tools/ai.md: 200 credits, paid plans): the
// model answers the tables as JSON, which is checked and written by the
// workbook writer (typed cells); nothing found or an unusable answer → the
// deterministic engine, the vision rate still charged.

const PATH = "/api/v1/pdf/to-xlsx";
const pdf = (n = 1) => layoutPdf(Array.from({ length: n }, (_, i) => [{ text: `Prose on page ${i + 1}, no table here.`, x: 72, y: 100 }]));

type Body = Answer<"pdf-to-xlsx">;

async function vision(bytes: Uint8Array, models = stubModels()) {
  const acct = await accountWithKey({ plan: "starter", credits: 1000 });
  const res = await postFormWith(stubEnv(models), PATH, { file: file(bytes, "report.pdf"), engine: "vision" }, withKey(acct.key));
  return { res, acct };
}

describe("PDF to Excel: vision", () => {
  it("the model's tables become typed sheets named by page, at 200 credits", async () => {
    const models = stubModels();
    const tables = {
      tables: [
        {
          page: 1,
          rows: [
            ["Region", "Units", "Revenue"],
            ["North", "1,234", 5600.5],
            ["South", 98, null],
          ],
        },
        {
          page: 2,
          rows: [
            ["Item", "Qty"],
            ["Bolts", "12"],
          ],
        },
      ],
    };
    await script(models.vision, [{ content: JSON.stringify(tables) }]);
    const { res, acct } = await vision(await pdf(2), models);
    const body = (await res.json()) as Body;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ tables_found: 2, sheets: 2, pages: 2, credits_charged: 200 });
    const book = readXlsx(await download(body.url));
    expect(book.sheets.map((s) => s.name)).toEqual(["Page 1 Table 1", "Page 2 Table 1"]);
    const [header, north, south] = book.sheets[0].grid;
    expect(header.map((c) => [c.type, c.value])).toEqual([
      ["s", "Region"],
      ["s", "Units"],
      ["s", "Revenue"],
    ]);
    expect(north.map((c) => [c.type, c.value])).toEqual([
      ["s", "North"],
      ["n", "1234"],
      ["n", "5600.5"],
    ]);
    expect(south.slice(0, 2).map((c) => [c.type, c.value])).toEqual([
      ["s", "South"],
      ["n", "98"],
    ]);
    expect(textGrid(book.sheets[1])).toEqual([
      ["Item", "Qty"],
      ["Bolts", "12"],
    ]);
    expect(book.sheets[0].grid[0][1].type).toBe("s");
    expect(await balanceOf(acct.token)).toBe(800);
    const [sent] = await stubRequests(models.vision);
    expect(imagesOf(sent)).toHaveLength(2);
    expect(sent.body.response_format).toEqual({ type: "json_object" });
    expect(promptOf(sent)).toContain('"tables"');
  });

  it("past 12 pages the deterministic engine adds the later pages' tables", async () => {
    const models = stubModels();
    const rows = [
      ["Part", "Count"],
      ["Nuts", "40"],
    ];
    // A ruled table on page 13: lines around each cell, text inside.
    const [x0, x1, top] = [72, 232, 100];
    const table = [
      ...[0, 1, 2].map((r) => ({ rule: [x0, top + r * 20, x1, top + r * 20] as [number, number, number, number] })),
      ...[0, 1, 2].map((c) => ({ rule: [x0 + c * 80, top, x0 + c * 80, top + 40] as [number, number, number, number] })),
      ...rows.flatMap((row, r) => row.map((text, c) => ({ text, x: x0 + c * 80 + 4, y: top + r * 20 + 14, size: 10 }))),
    ];
    const bytes = await layoutPdf([...Array.from({ length: 12 }, (_, i) => [{ text: `Prose on page ${i + 1}.`, x: 72, y: 100 }]), table]);
    await script(models.vision, [{ content: '{"tables": [{"page": 1, "rows": [["Seen", "1"]]}]}' }, ...Array(3).fill({ content: '{"tables": []}' })]);
    const { res } = await vision(bytes, models);
    const body = (await res.json()) as Body;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ tables_found: 2, pages: 13 });
    const book = readXlsx(await download(body.url));
    expect(book.sheets.map((s) => s.name)).toEqual(["Page 1 Table 1", "Page 13 Table 1"]);
    expect(textGrid(book.sheets[1])).toEqual(rows);
    expect(await stubRequests(models.vision)).toHaveLength(4);
  });

  it.each([
    ["no table", '{"tables": []}'],
    ["prose instead of JSON", "There are no tables in this document."],
    ["the wrong shape", '{"tables": [{"rows": "North, 1234"}]}'],
    ["only empty rows", '{"tables": [{"page": 1, "rows": [["", null]]}]}'],
  ])("the model answers %s: the deterministic workbook (per-page text), 200 credits still charged", async (_label, answer) => {
    const models = stubModels();
    await script(models.vision, [{ content: answer }]);
    const { res, acct } = await vision(await pdf(1), models);
    const body = (await res.json()) as Body;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ tables_found: 0, sheets: 1, credits_charged: 200 });
    expect(textGrid(readXlsx(await download(body.url)).sheets[0])[0][0]).toContain("Prose on page 1");
    expect(await balanceOf(acct.token)).toBe(800);
  });

  it("a model that fails twice is 503 ai_unavailable, refunded", async () => {
    const models = stubModels();
    await script(models.vision, [{ status: 500 }, { status: 500 }]);
    const { res, acct } = await vision(await pdf(1), models);
    expect(res.status).toBe(503);
    expect((await problem(res)).code).toBe("ai_unavailable");
    expect(await balanceOf(acct.token)).toBe(1000);
  });

  it("a free plan is 403 even with a model configured; engine=auto never calls the model", async () => {
    const models = stubModels();
    const free = await accountWithKey({ plan: "free", credits: 1000 });
    const denied = await postFormWith(stubEnv(models), PATH, { file: file(await pdf(1), "a.pdf"), engine: "vision" }, withKey(free.key));
    expect(denied.status).toBe(403);
    expect((await problem(denied)).code).toBe("plan_required");
    const auto = await postFormWith(stubEnv(models), PATH, { file: file(await pdf(1), "a.pdf") }, withKey(free.key));
    expect(auto.status).toBe(200);
    expect(await stubRequests(models.vision)).toHaveLength(0);
  });
});
