import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { imagesOf, postFormWith, promptOf, script, stubEnv, stubModels, stubRequests } from "../../support/ai";
import { file, problem, withKey } from "../../support/http";
import { encryptedPdf, layoutPdf, scanOf } from "../../support/pdf.mjs";
import type { Answer } from "../../support/answers";

// AI extract with engine=vision: the first 3 pages or fewer as images to the
// vision model; found nothing → the text path, still 200 credits
// (docs/tools/ai.md, AI extract).

const PATH = "/api/v1/ai/extract-data";
const pages = (n: number) => layoutPdf(Array.from({ length: n }, (_, i) => [{ text: `Receipt page ${i + 1} total 42.50`, x: 72, y: 100 }]));

type Body = Answer<"ai-extract">;

async function run(bytes: Uint8Array, models = stubModels(), fields: Record<string, string> = {}) {
  const acct = await accountWithKey({ plan: "enterprise", credits: 1000 });
  const res = await postFormWith(stubEnv(models), PATH, { file: file(bytes, "doc.pdf"), engine: "vision", ...fields }, withKey(acct.key));
  return { res, acct };
}

describe("AI extract, vision path", () => {
  it("sends at most the first 3 pages as JPEG data URLs and answers engine vision at 200 credits", async () => {
    const models = stubModels();
    await script(models.vision, [{ content: '{"merchant": {"name": "Corner Shop"}, "total": 42.5}' }]);
    const { res, acct } = await run(await pages(5), models, { preset: "receipt" });
    const body = (await res.json()) as Body;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      engine: "vision",
      parsed_ok: true,
      credits_charged: 200,
      data: { total: 42.5, merchant: { name: "Corner Shop", address: null }, tip: null },
    });
    const sent = await stubRequests(models.vision);
    expect(sent).toHaveLength(1);
    const images = imagesOf(sent[0]);
    expect(images).toHaveLength(3);
    for (const url of images) expect(url).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    expect(promptOf(sent[0])).toContain("first 3 page(s)");
    expect(await stubRequests(models.text)).toHaveLength(0);
    expect(await balanceOf(acct.token)).toBe(800);
  });

  it("a one-page PDF sends one image", async () => {
    const models = stubModels();
    await script(models.vision, [{ content: '{"total": 42.5}' }]);
    await run(await pages(1), models);
    expect(imagesOf((await stubRequests(models.vision))[0])).toHaveLength(1);
  });

  it("vision found nothing: falls back to the text path (engine auto) and still charges 200", async () => {
    const models = stubModels();
    await script(models.vision, [{ content: '{"total": null, "merchant": null}' }]);
    await script(models.text, [{ content: '{"total": 42.5}' }]);
    const { res, acct } = await run(await pages(2), models, { preset: "receipt" });
    const body = (await res.json()) as Body;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ engine: "auto", parsed_ok: true, credits_charged: 200, data: { total: 42.5 } });
    expect(promptOf((await stubRequests(models.text))[0])).toContain("Receipt page 2 total 42.50");
    expect(await balanceOf(acct.token)).toBe(800);
  });

  it("found nothing on a scan with no readable text: the vision answer (nulls) stands, engine vision", async () => {
    const models = stubModels();
    await script(models.vision, [{ content: "{}" }]);
    const blank = await scanOf(await layoutPdf([[{ image: [100, 100, 300, 200] }]]), { dpi: 100 });
    const { res } = await run(blank, models, { preset: "receipt" });
    const body = (await res.json()) as Body;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ engine: "vision", parsed_ok: true, data: { total: null, merchant: null, items: null } });
    expect(await stubRequests(models.text)).toHaveLength(0);
  });

  it("a password-protected PDF is 422 password_protected, refunded, and no model is called", async () => {
    const models = stubModels();
    const { res, acct } = await run(await encryptedPdf(await pages(1)), models);
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("password_protected");
    expect(await balanceOf(acct.token)).toBe(1000);
    expect(await stubRequests(models.vision)).toHaveLength(0);
  });
});
