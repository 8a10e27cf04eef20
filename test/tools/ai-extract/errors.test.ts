import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf, createAccount, createKey } from "../../support/accounts";
import { postFormWith, script, stubEnv, stubModels, stubRequests } from "../../support/ai";
import { call, file, postForm, problem, withKey } from "../../support/http";
import { layoutPdf } from "../../support/pdf.mjs";

// AI extract's gates and failures (docs/tools/ai.md): the pro and enterprise
// plans only, scopes, the answers without a model, the schema's
// 422s, and the model call's retry, timeout and failure, all refunded.

const PATH = "/api/v1/ai/extract-data";
const pdf = () => layoutPdf([[{ text: "Invoice INV-7 total 10.00", x: 72, y: 100 }]]);

async function expectProblem(res: Response, status: number, code: string) {
  const p = await problem(res);
  expect(res.status, JSON.stringify(p)).toBe(status);
  expect(p.code).toBe(code);
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
  return p;
}

describe("AI extract: access", () => {
  it("anonymous is 401; free and starter plans are 403 plan_required, on both engines, charged nothing", async () => {
    const env = stubEnv(stubModels());
    for (const engine of ["auto", "vision"])
      await expectProblem(await postFormWith(env, PATH, { file: file(await pdf(), "a.pdf"), engine }), 401, "unauthorized");
    for (const plan of ["free", "starter"]) {
      const acct = await accountWithKey({ plan, credits: 500 });
      for (const engine of ["auto", "vision"]) {
        await expectProblem(await postFormWith(env, PATH, { file: file(await pdf(), "a.pdf"), engine }, withKey(acct.key)), 403, "plan_required");
      }
      expect(await balanceOf(acct.token)).toBe(500);
    }
  });

  it("a key scoped to ai.extract may not run vision (ai.extract.ai): 403 scope_denied", async () => {
    const models = stubModels();
    const acct = await createAccount({ plan: "pro", credits: 500 });
    const key = await createKey(acct.token, { scopes: ["ai.extract"] });
    await expectProblem(
      await postFormWith(stubEnv(models), PATH, { file: file(await pdf(), "a.pdf"), engine: "vision" }, withKey(key.api_key)),
      403,
      "scope_denied",
    );
    await script(models.text, [{ content: '{"n": 1}' }]);
    expect((await postFormWith(stubEnv(models), PATH, { file: file(await pdf(), "a.pdf") }, withKey(key.api_key))).status).toBe(200);
    expect(await balanceOf(acct.token)).toBe(400);
  });
});

describe("AI extract: configuration and input", () => {
  it("with no model configured: auto is 503 llm_not_configured, vision 422 ai_not_configured, both refunded", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    await expectProblem(await postForm(PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key)), 503, "llm_not_configured");
    await expectProblem(await postForm(PATH, { file: file(await pdf(), "a.pdf"), engine: "vision" }, withKey(acct.key)), 422, "ai_not_configured");
    expect(await balanceOf(acct.token)).toBe(500);
  });

  it("only a text model: vision is 422; only a vision model: auto is 503", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    const { text, vision } = stubModels();
    await expectProblem(
      await postFormWith(stubEnv({ text }), PATH, { file: file(await pdf(), "a.pdf"), engine: "vision" }, withKey(acct.key)),
      422,
      "ai_not_configured",
    );
    await expectProblem(await postFormWith(stubEnv({ vision }), PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key)), 503, "llm_not_configured");
    expect(await balanceOf(acct.token)).toBe(500);
  });

  it("a missing file or a non-.pdf name is 415; an unknown engine 422", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    const env = stubEnv(stubModels());
    await expectProblem(await postFormWith(env, PATH, {}, withKey(acct.key)), 415, "unsupported_media_type");
    await expectProblem(await postFormWith(env, PATH, { file: file(await pdf(), "a.txt", "text/plain") }, withKey(acct.key)), 415, "unsupported_media_type");
    await expectProblem(await postFormWith(env, PATH, { file: file(await pdf(), "a.pdf"), engine: "turbo" }, withKey(acct.key)), 422, "validation_failed");
  });

  it.each([
    ["not JSON", "{type: object"],
    ["a JSON string, not a schema", '"invoice"'],
    ["an unknown type name", '{"type": "strng"}'],
    ["required that is not an array", '{"type": "object", "required": "total"}'],
    ["properties that are not schemas", '{"type": "object", "properties": {"total": 5}}'],
    ["a broken pattern", '{"type": "string", "pattern": "(["}'],
    ["a negative maxLength", '{"type": "string", "maxLength": -1}'],
    ["an unresolvable $ref", '{"$ref": "#/$defs/missing"}'],
  ])("a schema that is %s is 422 validation_failed, refunded, no model called", async (_label, schema) => {
    const models = stubModels();
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    await expectProblem(await postFormWith(stubEnv(models), PATH, { file: file(await pdf(), "a.pdf"), schema }, withKey(acct.key)), 422, "validation_failed");
    expect(await balanceOf(acct.token)).toBe(500);
    expect(await stubRequests(models.text)).toHaveLength(0);
  });

  it("boolean and draft-4 style schemas are accepted", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    for (const schema of ["true", '{"type": "object", "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}}']) {
      const models = stubModels();
      await script(models.text, [{ content: '{"n": 3}' }]);
      const res = await postFormWith(stubEnv(models), PATH, { file: file(await pdf(), "a.pdf"), schema }, withKey(acct.key));
      expect(res.status, await res.clone().text()).toBe(200);
    }
  });
});

describe("AI extract: the model call", () => {
  it("a 503 then an answer: retried once, 200", async () => {
    const models = stubModels();
    await script(models.text, [{ status: 503 }, { content: '{"n": 1}' }]);
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    const res = await postFormWith(stubEnv(models), PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key));
    expect(res.status).toBe(200);
    expect(await stubRequests(models.text)).toHaveLength(2);
  });

  it("429 twice: 503 ai_unavailable after exactly one retry, refunded", async () => {
    const models = stubModels();
    await script(models.text, [{ status: 429 }, { status: 429 }, { content: '{"n": 1}' }]);
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    await expectProblem(await postFormWith(stubEnv(models), PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key)), 503, "ai_unavailable");
    expect(await stubRequests(models.text)).toHaveLength(2);
    expect(await balanceOf(acct.token)).toBe(500);
  });

  it("a 400 from the model server is not retried", async () => {
    const models = stubModels();
    await script(models.text, [{ status: 400 }, { content: '{"n": 1}' }]);
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    await expectProblem(await postFormWith(stubEnv(models), PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key)), 503, "ai_unavailable");
    expect(await stubRequests(models.text)).toHaveLength(1);
  });

  it("a model that does not answer within AI_TIMEOUT_MS: two attempts, then 503 ai_unavailable, refunded", async () => {
    const models = stubModels();
    await script(models.text, [
      { hangMs: 3000, content: "{}" },
      { hangMs: 3000, content: "{}" },
    ]);
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    const started = Date.now();
    const res = await postFormWith(stubEnv(models, { AI_TIMEOUT_MS: "300" }), PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key));
    await expectProblem(res, 503, "ai_unavailable");
    expect(Date.now() - started).toBeLessThan(2900);
    expect(await stubRequests(models.text)).toHaveLength(2);
    expect(await balanceOf(acct.token)).toBe(500);
  });

  it("an answer body over 1 MiB is refused without being read whole: 503 ai_unavailable", async () => {
    const models = stubModels();
    await script(models.text, [{ bytes: 1_200_000 }, { bytes: 1_200_000 }]);
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    await expectProblem(await postFormWith(stubEnv(models), PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key)), 503, "ai_unavailable");
  });

  it("AI_API_KEY is sent as a Bearer token; without it no Authorization header goes out", async () => {
    const withKeyModels = stubModels();
    const bare = stubModels();
    await script(withKeyModels.text, [{ content: '{"n": 1}' }]);
    await script(bare.text, [{ content: '{"n": 1}' }]);
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    await postFormWith(stubEnv(withKeyModels, { AI_API_KEY: "sk-local-test" }), PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key));
    await postFormWith(stubEnv(bare), PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key));
    expect((await stubRequests(withKeyModels.text))[0].authorization).toBe("Bearer sk-local-test");
    expect((await stubRequests(bare.text))[0].authorization).toBeNull();
  });

  it("an AI_BASE_URL that is not a URL is a 503 configuration problem naming it", async () => {
    const acct = await accountWithKey({ plan: "pro", credits: 500 });
    // Answered by the settings check before any tool runs, so nothing is charged either.
    const res = await postFormWith({ AI_BASE_URL: "localhost:11434/v1", AI_TEXT_MODEL: "m" }, PATH, { file: file(await pdf(), "a.pdf") }, withKey(acct.key));
    const p = await problem(res);
    expect(res.status).toBe(503);
    expect(p.code).toBe("service_unavailable");
    expect(p.detail).toContain("AI_BASE_URL");
    expect(await balanceOf(acct.token)).toBe(500);
  });
});

describe("AI extract: the OpenAPI document", () => {
  it("describes the presets' fields, the schema field and both operations", async () => {
    const doc = (await (await call("/openapi.json")).json()) as {
      paths: Record<
        string,
        {
          post: {
            "x-operations": { key: string; credits: number }[];
            requestBody: { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> };
          };
        }
      >;
    };
    const op = doc.paths["/api/v1/ai/extract-data"].post;
    expect(op["x-operations"].map((o) => [o.key, o.credits])).toEqual([
      ["ai.extract", 100],
      ["ai.extract.ai", 200],
    ]);
    const props = op.requestBody.content["multipart/form-data"].schema.properties;
    expect(props.preset.description).toContain("invoice: invoice_number, invoice_date");
    expect(props.preset.description).toContain("resume: name, email");
    expect(props.schema.description).toContain("JSON Schema");
  });
});
