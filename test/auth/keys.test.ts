import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAccount, createKey } from "../support/accounts";
import { call, pdfFile, postForm, postJson, problem, withKey, withToken } from "../support/http";
import { makePdf } from "../support/pdf.mjs";

async function mergeWith(key: string): Promise<Response> {
  const pdf = await makePdf({ pages: 1 });
  return postForm("/api/v1/pdf/merge/merge", { files: [pdfFile(pdf, "a.pdf"), pdfFile(pdf, "b.pdf")] }, withKey(key));
}

describe("API key management", () => {
  it("creates a key: 201, secret shown once with dt_live_, prefix only afterwards", async () => {
    const acc = await createAccount();
    const res = await postJson("/api/v1/keys", { name: "ci", scopes: ["pdf.merge"], credit_limit: 500 }, withToken(acc.token));
    expect(res.status).toBe(201);
    const key = (await res.json()) as Record<string, unknown>;
    expect(key.api_key).toMatch(/^dt_live_[A-Za-z0-9_-]{40,}$/);
    expect(key.key_prefix).toBe(`${(key.api_key as string).slice(0, 12)}…`);
    expect(key).toMatchObject({ name: "ci", scopes: ["pdf.merge"], credit_limit: 500, credits_used: 0, is_active: true });
    expect(Date.parse(key.created_at as string)).not.toBeNaN();

    const list = (await (await call("/api/v1/keys", { headers: withToken(acc.token) })).json()) as { data: Record<string, unknown>[] };
    expect(list.data).toHaveLength(1);
    expect(list.data[0].id).toBe(key.id);
    expect(list.data[0]).not.toHaveProperty("api_key");
    expect(JSON.stringify(list)).not.toContain(key.api_key as string);

    const stored = await env.DB.prepare("SELECT key_hash FROM api_keys WHERE id = ?").bind(key.id).first<{ key_hash: string }>();
    expect(stored?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.key_hash).not.toContain(key.api_key as string);
  });

  it("defaults: full access, read+write permissions; omitted, [] and ['*'] mean full access", async () => {
    const acc = await createAccount();
    for (const scopes of [undefined, [], ["*"]]) {
      const key = await createKey(acc.token, scopes === undefined ? {} : { scopes });
      expect(key.scopes).toEqual(["*"]);
      expect((await mergeWith(key.api_key)).status).toBe(200);
    }
    const listed = (await (await call("/api/v1/keys", { headers: withToken(acc.token) })).json()) as { data: { permissions: string[] }[] };
    expect(listed.data[0].permissions).toEqual(["read", "write"]);
  });

  it("counts credits_used per key in the listing", async () => {
    const acc = await createAccount();
    const key = await createKey(acc.token);
    expect((await mergeWith(key.api_key)).status).toBe(200);
    const listed = (await (await call("/api/v1/keys", { headers: withToken(acc.token) })).json()) as { data: { id: string; credits_used: number }[] };
    expect(listed.data.find((k) => k.id === key.id)?.credits_used).toBe(10);
  });

  it("rejects unknown permissions and unknown scopes with 422", async () => {
    const acc = await createAccount();
    const bad = await postJson("/api/v1/keys", { name: "x", permissions: ["read", "superuser"] }, withToken(acc.token));
    expect(bad.status).toBe(422);
    const body = await problem(bad);
    expect(body.code).toBe("validation_failed");
    expect(body.errors?.some((e) => e.field.startsWith("permissions"))).toBe(true);
    const scope = await postJson("/api/v1/keys", { name: "x", scopes: ["pdf.teleport"] }, withToken(acc.token));
    expect(scope.status).toBe(422);
    expect((await problem(scope)).errors?.[0].field).toBe("scopes.0");
    const noName = await postJson("/api/v1/keys", {}, withToken(acc.token));
    expect(noName.status).toBe(422);
  });

  it("enforces the plan's key cap with 403, counting only active keys", async () => {
    const acc = await createAccount({ plan: "free" });
    const first = await createKey(acc.token);
    await createKey(acc.token);
    const third = await postJson("/api/v1/keys", { name: "third" }, withToken(acc.token));
    expect(third.status).toBe(403);
    expect((await problem(third)).code).toBe("key_limit_reached");
    const limits = (await (await call("/api/v1/keys/limits", { headers: withToken(acc.token) })).json()) as Record<string, unknown>;
    expect(limits).toEqual({ plan: "free", max_keys: 2, active_keys: 2, remaining: 0 });
    expect((await call(`/api/v1/keys/${first.id}`, { method: "DELETE", headers: withToken(acc.token) })).status).toBe(204);
    expect((await postJson("/api/v1/keys", { name: "third" }, withToken(acc.token))).status).toBe(201);
  });

  it("concurrent creations cannot exceed the cap", async () => {
    const acc = await createAccount({ plan: "free" });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => postJson("/api/v1/keys", { name: `k${i}` }, withToken(acc.token))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 403)).toHaveLength(4);
  });

  it("revocation: 204 with no body, the key stops authenticating at once, 404 for a foreign key", async () => {
    const acc = await createAccount();
    const key = await createKey(acc.token);
    expect((await mergeWith(key.api_key)).status).toBe(200);
    const del = await call(`/api/v1/keys/${key.id}`, { method: "DELETE", headers: withToken(acc.token) });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
    const after = await mergeWith(key.api_key);
    expect(after.status).toBe(401);
    expect((await problem(after)).code).toBe("invalid_credentials");
    const other = await createAccount();
    expect((await call(`/api/v1/keys/${key.id}`, { method: "DELETE", headers: withToken(other.token) })).status).toBe(404);
  });

  it("honours expires_in_days: an expired key is refused", async () => {
    const acc = await createAccount();
    const key = await createKey(acc.token, { expires_in_days: 30 });
    const row = await env.DB.prepare("SELECT expires_at FROM api_keys WHERE id = ?").bind(key.id).first<{ expires_at: string }>();
    const days = (Date.parse(row!.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    expect((await mergeWith(key.api_key)).status).toBe(200);
    // Time travel: move the expiry into the past, as 30 days would.
    await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), key.id)
      .run();
    expect((await mergeWith(key.api_key)).status).toBe(401);
  });

  it("key management takes a JWT only: an API key gets 403, no credential 401", async () => {
    const acc = await createAccount();
    const key = await createKey(acc.token);
    const withApiKey = await call("/api/v1/keys", { headers: withKey(key.api_key) });
    expect(withApiKey.status).toBe(403);
    expect((await problem(withApiKey)).code).toBe("forbidden");
    expect((await call("/api/v1/keys")).status).toBe(401);
    const badJwt = await call("/api/v1/keys", { headers: withToken("not.a.jwt") });
    expect(badJwt.status).toBe(401);
  });

  it("the scope catalog lists every billable operation with its credit cost", async () => {
    const acc = await createAccount();
    const res = await call("/api/v1/keys/scopes", { headers: withToken(acc.token) });
    const { data } = (await res.json()) as { data: { operation: string; credits: number; path: string }[] };
    const cost = Object.fromEntries(data.map((d) => [d.operation, d.credits]));
    expect(cost).toMatchObject({
      "pdf.compress": 20,
      "convert.document": 40,
      "convert.pdf_to_docx.ai": 200,
      "pdf.to_markdown": 40,
      "pdf.to_markdown_llm": 100,
      "pdf.to_markdown.ai": 200,
      "ai.extract": 100,
      "ai.extract.ai": 200,
      "pdf.to_xlsx": 40,
      "pdf.to_xlsx.ai": 200,
      "pdf.merge": 10,
      "pdf.split": 10,
      "html.to_pdf": 40,
      "pdf.redact": 40,
      "analyze.compare": 40,
      "pdf.repair": 20,
    });
    expect(new Set(data.map((d) => d.operation)).size).toBe(data.length);
  });
});
