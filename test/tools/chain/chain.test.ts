import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf, createAccount, createKey } from "../../support/accounts";
import { describeWithBrowser, itWithBrowser } from "../../support/browser";
import { call, download, form, pdfFile, postJson, problem, withKey } from "../../support/http";
import { toBase64 } from "../../support/mcp";
import { plainPdf } from "../../support/pdf.mjs";
import { pageTexts } from "../../support/pdf-text";
import { readPdf } from "../../support/pdf-read";

// POST /api/v1/chain through the Worker: real steps, one debit of their sum,
// one refund when any fails, outputs checked as a user would.

const CHAIN = "/api/v1/chain";

interface ChainBody {
  status: string;
  file_url: string | null;
  output_urls: string[];
  steps: { step: number; tool: string; operation: string; credits: number; output_urls: string[]; result: Record<string, unknown> | null }[];
  credits_charged: number;
}

const postChain = (steps: unknown[], parts: Record<string, File> = {}, key?: string, extra: Record<string, string> = {}) =>
  call(CHAIN, { method: "POST", body: form({ steps: JSON.stringify(steps), ...extra, ...parts }), headers: key ? withKey(key) : {} });

describeWithBrowser("Chain: HTML to PDF, merge, watermark, compress", () => {
  itWithBrowser("answers one URL whose PDF has every page and the watermark, charged 40+10+10+20", async () => {
    const acct = await accountWithKey({ credits: 500 });
    const res = await postChain(
      [
        { tool: "html-to-pdf", fields: { html: "<h1>Chained report</h1><p>Made in one request.</p>" } },
        { tool: "merge-pdf", fields: { files: ["$prev", "$file:appendix"] } },
        { tool: "watermark-text", fields: { file: "$prev", text: "CONFIDENTIAL", opacity: 0.5 } },
        { tool: "compress-pdf", fields: { file_data: "$prev", filename: "report.pdf" } },
      ],
      { appendix: pdfFile(await plainPdf(2, "Appendix"), "appendix.pdf") },
      acct.key,
    );
    const body = (await res.json()) as ChainBody;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("80");
    expect(body.credits_charged).toBe(80);
    expect(body.steps.map((s) => [s.tool, s.credits])).toEqual([
      ["html-to-pdf", 40],
      ["merge-pdf", 10],
      ["watermark-text", 10],
      ["compress-pdf", 20],
    ]);
    // Only the last step stored anything.
    expect(body.steps.slice(0, 3).every((s) => s.output_urls.length === 0 && s.result === null)).toBe(true);
    expect(body.output_urls).toHaveLength(1);
    expect(body.file_url).toBe((body.steps[3].result as { download_url: string }).download_url);
    const pdf = await download(body.file_url as string);
    expect((await readPdf(pdf)).pages).toBe(3);
    const texts = await pageTexts(pdf);
    expect(texts[0]).toContain("Chained report");
    expect(texts[1]).toContain("Appendix");
    for (const t of texts) expect(t).toContain("CONFIDENTIAL");
    expect(await balanceOf(acct.token)).toBe(420);
  });
});

describe("Chain: refunds, validation and scopes", () => {
  it("a third step that fails refunds the whole chain and names the step", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const res = await postChain(
      [
        { tool: "merge-pdf", fields: { files: ["$file:a", "$file:b"] } },
        { tool: "watermark-text", fields: { file: "$prev", text: "DRAFT" } },
        { tool: "split-pdf", fields: { file: "$prev", split_mode: "page_range", split_config: { ranges: [[40, 50]] } } },
      ],
      { a: pdfFile(await plainPdf(1), "a.pdf"), b: pdfFile(await plainPdf(1), "b.pdf") },
      acct.key,
    );
    const body = await problem(res);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(body.detail).toMatch(/^Step 3 \(split-pdf\) failed/);
    expect(body.errors?.[0].field).toBe("steps[2]");
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("refuses a plan before anything runs: unknown tools, $prev first, missing parts, bad fields, too many steps", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const fieldsOf = async (steps: unknown[], parts: Record<string, File> = {}) => {
      const res = await postChain(steps, parts, acct.key);
      const body = await problem(res);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get("X-Credits-Charged")).toBe("0");
      return (body.errors ?? []).map((e) => e.field);
    };
    expect(await fieldsOf([{ tool: "no-such-tool" }])).toEqual(["steps.0.tool"]);
    expect(await fieldsOf([{ tool: "watermark-text", fields: { file: "$prev", text: "x" } }])).toEqual(["steps.0.fields.file"]);
    expect(await fieldsOf([{ tool: "watermark-text", fields: { file: "$file:nope", text: "x" } }])).toEqual(["steps.0.fields.file"]);
    const a = { a: pdfFile(await plainPdf(1), "a.pdf") };
    expect(await fieldsOf([{ tool: "watermark-text", fields: { file: "$file:a", text: "x", font_size: 500 } }], a)).toEqual(["steps.0.fields.font_size"]);
    expect(await fieldsOf([{ tool: "chain", fields: {} }])).toEqual(["steps.0.tool"]);
    const eleven = Array.from({ length: 11 }, () => ({ tool: "watermark-text", fields: { file: "$prev", text: "x" } }));
    expect(await fieldsOf(eleven)).toEqual(["steps"]);
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("checks every step's scope before running any", async () => {
    const acct = await createAccount({ credits: 100 });
    const key = await createKey(acct.token, { scopes: ["chain", "pdf.merge"] });
    const res = await postChain(
      [
        { tool: "merge-pdf", fields: { files: ["$file:a", "$file:b"] } },
        { tool: "watermark-text", fields: { file: "$prev", text: "x" } },
      ],
      { a: pdfFile(await plainPdf(1), "a.pdf"), b: pdfFile(await plainPdf(1), "b.pdf") },
      key.api_key,
    );
    const body = await problem(res);
    expect(res.status).toBe(403);
    expect(body.code).toBe("scope_denied");
    expect(body.errors?.[0].field).toBe("steps[1]");
    expect(await balanceOf(acct.token)).toBe(100);
  });

  it("keep stores a middle step's output too; a JSON body takes inline Base64 files", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const ref = async (label: string) => ({ base64: toBase64(await plainPdf(1, label)), filename: `${label}.pdf` });
    const res = await postJson(
      CHAIN,
      {
        steps: [
          { tool: "merge-pdf", fields: { files: [await ref("One"), await ref("Two")] } },
          { tool: "page-numbers", fields: { file: "$prev" } },
        ],
        keep: [1],
      },
      withKey(acct.key),
    );
    const body = (await res.json()) as ChainBody;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.credits_charged).toBe(20);
    expect(body.steps[0].output_urls).toHaveLength(1);
    const merged = await download(body.steps[0].output_urls[0]);
    expect((await readPdf(merged)).pages).toBe(2);
    expect(body.file_url).toBe(body.output_urls[0]);
    const numbered = await pageTexts(await download(body.file_url as string));
    expect(numbered[1]).toMatch(/2/);
  });

  it("anonymous callers chain free-try tools at 0 credits", async () => {
    const res = await postChain(
      [
        { tool: "merge-pdf", fields: { files: ["$file:a", "$file:b"] } },
        { tool: "watermark-text", fields: { file: "$prev", text: "FREE" } },
      ],
      { a: pdfFile(await plainPdf(1), "a.pdf"), b: pdfFile(await plainPdf(1), "b.pdf") },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
  });
});
