import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { imagesOf, postFormWith, script, stubEnv, stubModels, stubRequests } from "../../support/ai";
import { download, file, problem, withKey } from "../../support/http";
import { layoutPdf, scannedPdf } from "../../support/pdf.mjs";
import { CONVERT, type ConvertBody, documentXml, docxText, tableCells } from "./support";

// Convert document, PDF → DOCX with engine=vision ("vision-docx", 200
// credits, paid plans): the model's Markdown per page through the existing
// DOCX writer; nothing found → the deterministic converter (mupdf-docx),
// the vision rate still charged.

const pdf = (n = 1) => layoutPdf(Array.from({ length: n }, (_, i) => [{ text: `Letter body on page ${i + 1}.`, x: 72, y: 100 }]));

async function vision(bytes: Uint8Array, models = stubModels()) {
  const acct = await accountWithKey({ plan: "starter", credits: 1000 });
  const res = await postFormWith(
    stubEnv(models),
    CONVERT,
    { file: file(bytes, "letter.pdf", "application/octet-stream"), target_format: "docx", engine: "vision" },
    withKey(acct.key),
  );
  return { res, acct };
}

describe("Convert document: vision PDF → DOCX", () => {
  it("the model's Markdown becomes headings, runs and a Word table, one section per page; engine_used vision-docx at 200 credits", async () => {
    const models = stubModels();
    await script(models.vision, [
      {
        content:
          "<!-- page 1 -->\n# Letter body\n\nLetter body on **page 1**.\n\n- first point\n- second point\n<!-- page 2 -->\n| Item | Qty |\n|---|---|\n| Bolts | 12 |\n\nLetter body on page 2.",
      },
    ]);
    const { res, acct } = await vision(await pdf(2), models);
    const body = (await res.json()) as ConvertBody;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ engine_used: "vision-docx", metadata: { engine_used: "vision-docx", source_format: "pdf", target_format: "docx" } });
    expect(res.headers.get("X-Credits-Charged")).toBe("200");
    expect(body.quality_score).toBeGreaterThan(0.5);
    expect(body.quality_score).toBeLessThanOrEqual(1);
    const xml = documentXml(await download(body.output_file_url));
    const text = docxText(xml);
    for (const words of ["Letter body", "first point", "second point", "Letter body on page 2."]) expect(text).toContain(words);
    expect(tableCells(xml)).toEqual(["Item", "Qty", "Bolts", "12"]);
    expect(xml).toMatch(/<w:b\/>[\s\S]*?page 1/);
    expect((xml.match(/<w:sectPr/g) ?? []).length).toBe(2);
    expect(imagesOf((await stubRequests(models.vision))[0])).toHaveLength(2);
    expect(await balanceOf(acct.token)).toBe(800);
  });

  it("a scan: the model's reading is the DOCX text, scored by the share of pages read", async () => {
    const models = stubModels();
    await script(models.vision, [{ content: "<!-- page 1 -->\nText read off the scanned page." }]);
    const { res } = await vision(await scannedPdf(1, 72), models);
    const body = (await res.json()) as ConvertBody;
    expect(body.engine_used).toBe("vision-docx");
    expect(body.quality_score).toBe(1);
    expect(docxText(documentXml(await download(body.output_file_url)))).toContain("Text read off the scanned page.");
  });

  it("the model finds nothing: the deterministic converter answers (mupdf-docx), 200 credits still charged", async () => {
    const models = stubModels();
    await script(models.vision, [{ content: "NO_CONTENT" }]);
    const { res, acct } = await vision(await pdf(1), models);
    const body = (await res.json()) as ConvertBody;
    expect(res.status).toBe(200);
    expect(body.engine_used).toBe("mupdf-docx");
    expect(docxText(documentXml(await download(body.output_file_url)))).toContain("Letter body on page 1.");
    expect(await balanceOf(acct.token)).toBe(800);
  });

  it("a model that fails twice is 503 ai_unavailable, refunded", async () => {
    const models = stubModels();
    await script(models.vision, [{ status: 503 }, { status: 503 }]);
    const { res, acct } = await vision(await pdf(1), models);
    expect(res.status).toBe(503);
    expect((await problem(res)).code).toBe("ai_unavailable");
    expect(await balanceOf(acct.token)).toBe(1000);
  });
});
