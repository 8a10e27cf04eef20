import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { imagesOf, postFormWith, promptOf, script, stubEnv, stubModels, stubRequests } from "../../support/ai";
import { file, problem, withKey } from "../../support/http";
import { encryptedPdf, layoutPdf, scannedPdf } from "../../support/pdf.mjs";
import { type MarkdownBody, PATH, toMarkdown } from "./client";

// engine=vision (docs/tools/ai.md: 200 credits; falls back to the deterministic
// engine when the model finds nothing, the vision rate still charged).

const pages = (n: number) => layoutPdf(Array.from({ length: n }, (_, i) => [{ text: `Body text of page number ${i + 1}.`, x: 72, y: 100 }]));

async function vision(pdf: Uint8Array, models = stubModels()) {
  const acct = await accountWithKey({ plan: "starter", credits: 1000 });
  const res = await postFormWith(stubEnv(models), PATH, { file: file(pdf, "doc.pdf"), engine: "vision" }, withKey(acct.key));
  return { res, acct };
}

describe("PDF to Markdown: vision", () => {
  it("page images go to the vision model; its Markdown per page is answered with engine vision at 200 credits", async () => {
    const models = stubModels();
    await script(models.vision, [
      { content: "```markdown\n<!-- page 1 -->\n# Seen Title\n\nFirst page prose.\n<!-- page 2 -->\n| a | b |\n|---|---|\n| 1 | 2 |\n```" },
    ]);
    const { res, acct } = await vision(await pages(2), models);
    const body = (await res.json()) as MarkdownBody;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ engine: "vision", pages: 2, credits_charged: 200, headings: 1 });
    expect(body.markdown).toBe("# Seen Title\n\nFirst page prose.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
    expect(await balanceOf(acct.token)).toBe(800);
    const [sent] = await stubRequests(models.vision);
    expect(imagesOf(sent)).toHaveLength(2);
    expect(imagesOf(sent)[0]).toMatch(/^data:image\/jpeg;base64,/);
    expect(promptOf(sent)).toContain("Pages 1, 2");
  });

  it("at most 3 images a call: a 5-page PDF takes two calls of 3 and 2 pages", async () => {
    const models = stubModels();
    await script(models.vision, [
      { content: "<!-- page 1 -->\nA\n<!-- page 2 -->\nB\n<!-- page 3 -->\nC" },
      { content: "<!-- page 4 -->\nD\n<!-- page 5 -->\nE" },
    ]);
    const { res } = await vision(await pages(5), models);
    expect(((await res.json()) as MarkdownBody).markdown).toBe("A\n\nB\n\nC\n\nD\n\nE\n");
    const sent = await stubRequests(models.vision);
    expect(sent.map((r) => imagesOf(r).length)).toEqual([3, 2]);
    expect(promptOf(sent[1])).toContain("Pages 4, 5");
  });

  it("past 12 pages the layout engine reads the rest: 4 calls, then page 13's text from the text layer", async () => {
    const models = stubModels();
    await script(
      models.vision,
      Array.from({ length: 4 }, (_, c) => ({ content: [1, 2, 3].map((k) => `<!-- page ${c * 3 + k} -->\nSeen ${c * 3 + k}`).join("\n") })),
    );
    const { res } = await vision(await pages(13), models);
    const body = (await res.json()) as MarkdownBody;
    expect(body.engine).toBe("vision");
    expect(body.markdown).toContain("Seen 12");
    expect(body.markdown).toContain("Body text of page number 13.");
    expect(body.markdown).not.toContain("Body text of page number 12.");
    expect(await stubRequests(models.vision)).toHaveLength(4);
  });

  it("a scan (no text layer) is read by vision", async () => {
    const models = stubModels();
    await script(models.vision, [{ content: "<!-- page 1 -->\nText the model read off the scan." }]);
    const { res } = await vision(await scannedPdf(1, 72), models);
    expect((await res.json()) as MarkdownBody).toMatchObject({ engine: "vision", markdown: "Text the model read off the scan.\n" });
  });

  it("the model finds nothing: the deterministic Markdown, engine layout, and the vision rate is still charged", async () => {
    const pdf = await pages(2);
    const plain = await toMarkdown(pdf);
    const models = stubModels();
    await script(models.vision, [{ content: "<!-- page 1 -->\nNO_CONTENT\n<!-- page 2 -->\nNO_CONTENT" }]);
    const { res, acct } = await vision(pdf, models);
    const body = (await res.json()) as MarkdownBody;
    expect(body).toMatchObject({ engine: "layout", markdown: plain.markdown, credits_charged: 200 });
    expect(await balanceOf(acct.token)).toBe(800);
  });

  it("a model that fails twice is 503 ai_unavailable, refunded", async () => {
    const models = stubModels();
    await script(models.vision, [{ status: 502 }, { status: 503 }]);
    const { res, acct } = await vision(await pages(1), models);
    expect(res.status).toBe(503);
    expect((await problem(res)).code).toBe("ai_unavailable");
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(await balanceOf(acct.token)).toBe(1000);
  });

  it("a password-protected PDF is 422 password_protected, refunded, before any model call", async () => {
    const models = stubModels();
    const { res, acct } = await vision(await encryptedPdf(await pages(1)), models);
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("password_protected");
    expect(await balanceOf(acct.token)).toBe(1000);
    expect(await stubRequests(models.vision)).toHaveLength(0);
  });

  it("only a text model configured: vision is still 422 ai_not_configured", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 1000 });
    const res = await postFormWith(stubEnv({ text: stubModels().text }), PATH, { file: file(await pages(1), "doc.pdf"), engine: "vision" }, withKey(acct.key));
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("ai_not_configured");
    expect(await balanceOf(acct.token)).toBe(1000);
  });
});
