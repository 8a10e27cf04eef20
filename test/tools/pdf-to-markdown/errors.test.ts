import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { file, postForm, problem, withKey } from "../../support/http";
import { corruptPdf, encryptedPdf, layoutPdf } from "../../support/pdf.mjs";
import { auth, PATH } from "./client";

const simple = () => layoutPdf([[{ text: "A short page of text for the error paths.", x: 72, y: 100 }]]);

async function expectProblem(res: Response, status: number, code: string) {
  const p = await problem(res);
  expect(res.status, JSON.stringify(p)).toBe(status);
  expect(p.code).toBe(code);
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
}

describe("PDF to Markdown: bad input", () => {
  it("a missing file or a name not ending in .pdf is 415", async () => {
    await expectProblem(await postForm(PATH, {}, await auth()), 415, "unsupported_media_type");
    await expectProblem(await postForm(PATH, { file: file(await simple(), "doc.txt", "text/plain") }, await auth()), 415, "unsupported_media_type");
  });

  it("an empty file, a non-PDF and a corrupt PDF are 422, refunded", async () => {
    const acct = await accountWithKey({ credits: 500 });
    for (const data of [new Uint8Array(0), new TextEncoder().encode("just some text, not a PDF"), corruptPdf()]) {
      const res = await postForm(PATH, { file: file(data, "doc.pdf") }, withKey(acct.key));
      expect(res.status).toBe(422);
      expect(["unreadable_document", "validation_failed"]).toContain((await problem(res)).code);
    }
    expect(await balanceOf(acct.token)).toBe(500);
  });

  it("a password-protected PDF is 422 password_protected, refunded", async () => {
    const acct = await accountWithKey({ credits: 500 });
    await expectProblem(await postForm(PATH, { file: file(await encryptedPdf(await simple()), "locked.pdf") }, withKey(acct.key)), 422, "password_protected");
    expect(await balanceOf(acct.token)).toBe(500);
  });

  it("an unknown engine is 422", async () => {
    await expectProblem(await postForm(PATH, { file: file(await simple(), "doc.pdf"), engine: "turbo" }, await auth()), 422, "validation_failed");
  });
});

describe("PDF to Markdown: AI paths (paid plans; docs/tools/ai.md, Without a model)", () => {
  it("anonymous calls are 401 on every path", async () => {
    for (const extra of [{}, { llm_cleanup: "true" }, { engine: "vision" }]) {
      await expectProblem(await postForm(PATH, { file: file(await simple(), "doc.pdf"), ...extra }), 401, "unauthorized");
    }
  });

  it("a free plan gets the default path but 403 on llm_cleanup and vision, charged nothing", async () => {
    const acct = await accountWithKey({ plan: "free", credits: 500 });
    const ok = await postForm(PATH, { file: file(await simple(), "doc.pdf") }, withKey(acct.key));
    expect(ok.status).toBe(200);
    for (const extra of [{ llm_cleanup: "true" }, { engine: "vision" }]) {
      await expectProblem(await postForm(PATH, { file: file(await simple(), "doc.pdf"), ...extra }, withKey(acct.key)), 403, "plan_required");
    }
    expect(await balanceOf(acct.token)).toBe(460);
  });

  it("a paid plan without AI configured: vision 422, llm_cleanup 503, both refunded", async () => {
    const acct = await accountWithKey({ plan: "starter", credits: 500 });
    await expectProblem(await postForm(PATH, { file: file(await simple(), "doc.pdf"), engine: "vision" }, withKey(acct.key)), 422, "ai_not_configured");
    await expectProblem(await postForm(PATH, { file: file(await simple(), "doc.pdf"), llm_cleanup: "true" }, withKey(acct.key)), 503, "llm_not_configured");
    expect(await balanceOf(acct.token)).toBe(500);
  });

  it("a key scoped to pdf.to_markdown cannot run the LLM path (403 scope_denied)", async () => {
    const { createKey, createAccount } = await import("../../support/accounts");
    const account = await createAccount({ plan: "pro", credits: 500 });
    const key = await createKey(account.token, { scopes: ["pdf.to_markdown"] });
    await expectProblem(await postForm(PATH, { file: file(await simple(), "doc.pdf"), llm_cleanup: "true" }, withKey(key.api_key)), 403, "scope_denied");
    const ok = await postForm(PATH, { file: file(await simple(), "doc.pdf") }, withKey(key.api_key));
    expect(ok.status).toBe(200);
  });
});
