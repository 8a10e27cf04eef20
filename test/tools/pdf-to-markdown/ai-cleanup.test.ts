import { describe, expect, it } from "vitest";
import { AI_BUDGETS } from "../../../src/engines/ai/budgets";
import { chunkMarkdown } from "../../../src/engines/ai/chunks";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { postFormWith, promptOf, script, stubEnv, stubModels, stubRequests } from "../../support/ai";
import { file, withKey } from "../../support/http";
import { layoutPdf, type LayoutItem, scanOf } from "../../support/pdf.mjs";
import { type MarkdownBody, PATH, toMarkdown } from "./client";

// llm_cleanup (docs/tools/ai.md: best effort, 100 credits): the layout engine's
// Markdown goes to the text model in heading-bounded chunks; a rewrite that
// drops or invents content is refused and the deterministic Markdown comes
// back unchanged, engine without +llm, the LLM rate still billed.

const doc = () =>
  layoutPdf([
    [
      { text: "Quarterly Report", x: 72, y: 90, size: 22, font: "bold" },
      { text: "Revenue grew in every region this quarter, led by the north.", x: 72, y: 130 },
      { text: "Costs stayed flat while headcount rose slightly.", x: 72, y: 150 },
      { text: "Outlook", x: 72, y: 200, size: 16, font: "bold" },
      { text: "We expect steady growth next quarter across all products.", x: 72, y: 230 },
    ],
  ]);

async function cleanup(pdf: Uint8Array, models = stubModels(), plan = "pro") {
  const acct = await accountWithKey({ plan, credits: 1000 });
  const res = await postFormWith(stubEnv(models), PATH, { file: file(pdf, "doc.pdf"), llm_cleanup: "true" }, withKey(acct.key));
  const body = (await res.json()) as MarkdownBody;
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
  return { body, acct, res };
}

describe("PDF to Markdown: LLM cleanup", () => {
  it("an accepted rewrite answers engine layout+llm and the polished Markdown, at 100 credits; the prompt carries the Markdown", async () => {
    const pdf = await doc();
    const plain = (await toMarkdown(pdf)).markdown;
    const polished = plain.replace(/^## /m, "# ").replace("Outlook", "**Outlook**");
    const models = stubModels();
    await script(models.text, [{ content: polished }]);
    const { body, acct, res } = await cleanup(pdf, models);
    expect(body.engine).toBe("layout+llm");
    expect(body.markdown.trim()).toBe(polished.trim());
    expect(body.credits_charged).toBe(100);
    expect(res.headers.get("X-Credits-Charged")).toBe("100");
    expect(await balanceOf(acct.token)).toBe(900);
    const [sent] = await stubRequests(models.text);
    expect(promptOf(sent)).toContain(plain.trim());
    expect(promptOf(sent)).toMatch(/do not summarise/i);
  });

  it("a scan is read by OCR first, then polished: engine ocr+llm, the prompt carries the OCR'd Markdown", async () => {
    const scan = await scanOf(await doc(), { dpi: 200 });
    const ocrd = (await toMarkdown(scan)).markdown;
    expect(ocrd).toContain("Revenue grew in every region this quarter");
    const models = stubModels();
    await script(models.text, [{ content: ocrd.replace("Outlook", "**Outlook**") }]);
    const { body } = await cleanup(scan, models);
    expect(body.engine).toBe("ocr+llm");
    expect(body.markdown).toContain("**Outlook**");
    expect(body.credits_charged).toBe(100);
    const [sent] = await stubRequests(models.text);
    expect(promptOf(sent)).toContain("Revenue grew in every region this quarter");
  });

  it("a starter plan may use it (paid plan)", async () => {
    const pdf = await doc();
    const models = stubModels();
    await script(models.text, [{ content: (await toMarkdown(pdf)).markdown }]);
    expect((await cleanup(pdf, models, "starter")).body.engine).toBe("layout+llm");
  });

  it.each([
    ["drops content", (md: string) => md.split("\n")[0]],
    ["invents content", (md: string) => `${md}\n\nThe board also approved a dividend of four dollars per share and a new headquarters in Lisbon.`],
    ["answers a summary", () => "The report says revenue grew."],
    ["answers nothing", () => ""],
  ])("a rewrite that %s is refused: the deterministic Markdown unchanged, engine layout, 100 credits still billed", async (_label, rewrite) => {
    const pdf = await doc();
    const plain = (await toMarkdown(pdf)).markdown;
    const models = stubModels();
    await script(models.text, [{ content: rewrite(plain) }]);
    const { body, acct } = await cleanup(pdf, models);
    expect(body.engine).toBe("layout");
    expect(body.markdown).toBe(plain);
    expect(body.credits_charged).toBe(100);
    expect(await balanceOf(acct.token)).toBe(900);
  });

  it("a model that fails (500 twice): the deterministic Markdown, engine layout, 100 credits still billed", async () => {
    const pdf = await doc();
    const plain = (await toMarkdown(pdf)).markdown;
    const models = stubModels();
    await script(models.text, [{ status: 500 }, { status: 500 }]);
    const { body, acct } = await cleanup(pdf, models);
    expect(body).toMatchObject({ engine: "layout", markdown: plain, credits_charged: 100 });
    expect(await stubRequests(models.text)).toHaveLength(2);
    expect(await balanceOf(acct.token)).toBe(900);
  });

  it("a long document goes in heading-bounded chunks within the budget, and the chunks come back joined", async () => {
    const sections: LayoutItem[][] = Array.from({ length: 4 }, (_, p) => [
      { text: `Section ${p + 1} heading`, x: 72, y: 80, size: 18, font: "bold" },
      ...Array.from({ length: 30 }, (_, i) => ({
        text: `Line ${i + 1} of section ${p + 1} with some ordinary words to fill the page.`,
        x: 72,
        y: 110 + i * 20,
        size: 10,
      })),
    ]);
    const pdf = await layoutPdf(sections);
    const plain = (await toMarkdown(pdf)).markdown;
    const chunks = chunkMarkdown(plain, AI_BUDGETS.cleanupChunkChars);
    expect(chunks.length).toBeGreaterThan(1);
    const models = stubModels();
    await script(
      models.text,
      chunks.map((c) => ({ content: c })),
    );
    const { body } = await cleanup(pdf, models);
    expect(body.engine).toBe("layout+llm");
    const sent = await stubRequests(models.text);
    expect(sent).toHaveLength(chunks.length);
    for (const [i, req] of sent.entries()) {
      const user = req.body.messages.find((m) => m.role === "user")?.content as string;
      expect(user).toBe(chunks[i]);
      expect(user.length).toBeLessThanOrEqual(AI_BUDGETS.cleanupChunkChars);
      expect(req.body.max_tokens).toBe(AI_BUDGETS.cleanupMaxTokens);
    }
    expect(body.markdown.replace(/\s+/g, " ").trim()).toBe(plain.replace(/\s+/g, " ").trim());
  });

  it("with engine=vision the vision road runs and cleanup is not called (cost precedence: 200)", async () => {
    const models = stubModels();
    await script(models.vision, [{ content: "<!-- page 1 -->\n# Quarterly Report\n\nRevenue grew." }]);
    const acct = await accountWithKey({ plan: "pro", credits: 1000 });
    const res = await postFormWith(stubEnv(models), PATH, { file: file(await doc(), "doc.pdf"), llm_cleanup: "true", engine: "vision" }, withKey(acct.key));
    const body = (await res.json()) as MarkdownBody;
    expect(body).toMatchObject({ engine: "vision", credits_charged: 200 });
    expect(await stubRequests(models.text)).toHaveLength(0);
  });
});
