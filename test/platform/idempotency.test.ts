import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { requestHash } from "../../src/http/idempotency";
import { accountWithKey, balanceOf, createAccount, createKey, uniqueEmail } from "../support/accounts";
import { ADMIN_TOKEN, call, file, postForm, postJson, problem, withKey, withToken } from "../support/http";
import { plainPdf } from "../support/pdf.mjs";

// Issue #14: Idempotency-Key with Stripe's semantics on every POST that
// charges or creates. Issue #31: a kept answer belongs to the credential
// that earned it, and a replay comes only after that credential passed the
// route's checks.

const MERGE = "/api/v1/pdf/merge/merge";
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
const idem = (key: string) => ({ "Idempotency-Key": key });
const newKey = () => `idem-${crypto.randomUUID()}`;

describe("Idempotency-Key", () => {
  it("a retried tool call replays the first answer and charges once, although the multipart boundary differs", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const [a, b] = [await plainPdf(1, "A"), await plainPdf(1, "B")];
    const key = newKey();
    // A new FormData each time: each request gets its own boundary.
    const send = () => postForm(MERGE, { files: [file(a, "a.pdf"), file(b, "b.pdf")] }, { ...withKey(acct.key), ...idem(key) });
    const first = await send();
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("X-Credits-Charged")).toBe("10");
    expect(await again.json()).toEqual(firstBody);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await balanceOf(acct.token)).toBe(990);
  });

  it("the same key for a different request is 422; without the header every call runs", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const key = newKey();
    const pdf = await plainPdf(1);
    expect((await postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, { ...withKey(acct.key), ...idem(key) })).status).toBe(200);
    const other = await postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "c.pdf")] }, { ...withKey(acct.key), ...idem(key) });
    expect(other.status).toBe(422);
    expect((await problem(other)).code).toBe("idempotency_key_reused");
    expect(other.headers.get("X-Credits-Charged")).toBeNull();
    for (let i = 0; i < 2; i++) expect((await postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, withKey(acct.key))).status).toBe(200);
    expect(await balanceOf(acct.token)).toBe(1000 - 30);
  });

  it("a retry while the first request still runs (here, in another isolate) is 409; one abandoned for 10 minutes can be retried", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const pdf = await plainPdf(1);
    const send = (key: string) => postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, { ...withKey(acct.key), ...idem(key) });
    // What a request in flight leaves in D1: the key taken, no answer yet.
    const inFlight = async (key: string, minutesAgo: number) => {
      const form = new FormData();
      form.append("files", file(pdf, "a.pdf"));
      form.append("files", file(pdf, "b.pdf"));
      const hash = await requestHash(new Request(`http://api.test${MERGE}`, { method: "POST", body: form }));
      const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
      await env.DB.prepare("INSERT INTO idempotency_keys (scope, key, request_hash, state, created_at) VALUES (?, ?, ?, 'running', ?)")
        .bind(`key:${acct.keyId}`, key, hash, at)
        .run();
    };
    const running = newKey();
    await inFlight(running, 1);
    const retry = await send(running);
    expect(retry.status).toBe(409);
    expect((await problem(retry)).code).toBe("idempotency_in_progress");
    expect(await balanceOf(acct.token)).toBe(1000);

    const abandoned = newKey();
    await inFlight(abandoned, 11);
    const taken = await send(abandoned);
    expect(taken.status).toBe(200);
    expect(taken.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await send(abandoned)).headers.get("Idempotent-Replayed")).toBe("true");
    expect(await balanceOf(acct.token)).toBe(990);
  });

  it("keys belong to the account: another account's same key runs its own request", async () => {
    const [one, two] = [await accountWithKey({ credits: 100 }), await accountWithKey({ credits: 100 })];
    const key = newKey();
    const pdf = await plainPdf(1);
    for (const acct of [one, two]) {
      const res = await postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, { ...withKey(acct.key), ...idem(key) });
      expect(res.headers.get("Idempotent-Replayed")).toBeNull();
      expect(await balanceOf(acct.token)).toBe(90);
    }
  });

  it("creating an API key twice with one Idempotency-Key makes one key; the replay does not show the secret again", async () => {
    const acct = await createAccount();
    const key = newKey();
    const first = await postJson("/api/v1/keys", { name: "ci" }, { ...withToken(acct.token), ...idem(key) });
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: string; api_key: string };
    expect(created.api_key).toMatch(/\S{20,}/);
    const again = await postJson("/api/v1/keys", { name: "ci" }, { ...withToken(acct.token), ...idem(key) });
    expect(again.status).toBe(201);
    const replayed = (await again.json()) as { id: string; api_key: string | null };
    expect(replayed.id).toBe(created.id);
    expect(replayed.api_key).toBeNull();
    const list = (await (await call("/api/v1/keys", { headers: withToken(acct.token) })).json()) as { data: { id: string }[] };
    expect(list.data.filter((k) => k.id === created.id)).toHaveLength(1);
    expect(list.data).toHaveLength(1);
  });

  it("webhook endpoint creation is idempotent too", async () => {
    const acct = await createAccount();
    const key = newKey();
    // Loopback targets are allowed in the test settings; nothing is sent on creation.
    const body = { url: "http://127.0.0.1:8080/idem", events: ["job.completed"] };
    const first = await postJson("/api/v1/webhooks", body, { ...withToken(acct.token), ...idem(key) });
    expect(first.status, await first.clone().text()).toBe(201);
    const again = await postJson("/api/v1/webhooks", body, { ...withToken(acct.token), ...idem(key) });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(((await again.json()) as { id: string; secret: string | null }).secret).toBeNull();
    const list = (await (await call("/api/v1/webhooks", { headers: withToken(acct.token) })).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(1);
  });

  it("a key without the tool's scope gets 403 scope_denied, not another key's kept answer; the first key still gets its replay", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const compressOnly = await createKey(acct.token, { scopes: ["image.compress"] });
    const readOnly = await createKey(acct.token, { permissions: ["read"] });
    const tightBudget = await createKey(acct.token, { scopes: ["pdf.merge"], credit_limit: 5 });
    const pdf = await plainPdf(1);
    const key = newKey();
    const send = (auth: Record<string, string>) => postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, { ...auth, ...idem(key) });

    const first = await send(withKey(acct.key));
    expect(first.status).toBe(200);
    const firstBody = await first.json();

    const denied = await send(withKey(compressOnly.api_key));
    expect(denied.status).toBe(403);
    expect((await problem(denied)).code).toBe("scope_denied");
    expect(denied.headers.get("Idempotent-Replayed")).toBeNull();
    expect(denied.headers.get("X-Credits-Charged")).toBe("0");

    const noWrite = await send(withKey(readOnly.api_key));
    expect([noWrite.status, (await problem(noWrite)).code]).toEqual([403, "permission_denied"]);
    // In scope, but its own budget does not cover the call: its own answer, not the replay.
    const overBudget = await send(withKey(tightBudget.api_key));
    expect([overBudget.status, (await problem(overBudget)).code]).toEqual([402, "budget_exceeded"]);
    expect(overBudget.headers.get("Idempotent-Replayed")).toBeNull();

    const again = await send(withKey(acct.key));
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect(await balanceOf(acct.token)).toBe(990);

    // The refusals kept nothing: the key is the first key's alone.
    const rows = await env.DB.prepare("SELECT scope FROM idempotency_keys WHERE key = ?").bind(key).all<{ scope: string }>();
    expect(rows.results.map((r) => r.scope).sort()).toEqual([`key:${acct.keyId}`, `key:${tightBudget.id}`].sort());
  });

  it("answers are kept per credential: a dashboard user of the same account with the same key runs its own request", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const pdf = await plainPdf(1);
    const key = newKey();
    const send = (auth: Record<string, string>) => postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, { ...auth, ...idem(key) });
    expect((await send(withKey(acct.key))).status).toBe(200);
    const asUser = await send(withToken(acct.token));
    expect(asUser.status).toBe(200);
    expect(asUser.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await send(withToken(acct.token))).headers.get("Idempotent-Replayed")).toBe("true");
    expect(await balanceOf(acct.token)).toBe(980);
  });

  it("the owner JWT of POST /admin/v1/accounts is never stored: D1 holds no token and a replay answers token null", async () => {
    const key = newKey();
    const body = { name: "Idem Co", plan: "free", credits: 0, owner_email: uniqueEmail("idem-owner") };
    const first = await postJson("/admin/v1/accounts", body, { ...admin, ...idem(key) });
    expect(first.status).toBe(201);
    const created = (await first.json()) as { account: { id: string }; owner: { id: string }; token: string | null };
    expect(created.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    const row = await env.DB.prepare("SELECT body FROM idempotency_keys WHERE scope = 'operator' AND key = ?").bind(key).first<{ body: string }>();
    expect(row).not.toBeNull();
    expect(row!.body).not.toContain(created.token as string);
    expect(row!.body).not.toContain(String(created.token).split(".")[2]);
    expect((JSON.parse(row!.body) as { token: unknown }).token).toBeNull();

    const again = await postJson("/admin/v1/accounts", body, { ...admin, ...idem(key) });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const replayed = (await again.json()) as typeof created;
    expect(replayed.token).toBeNull();
    expect(replayed.account.id).toBe(created.account.id);
    expect(replayed.owner.id).toBe(created.owner.id);
    // The first answer's token works; the account was made once.
    expect((await call("/api/v1/account", { headers: withToken(created.token as string) })).status).toBe(200);
  });

  it("operator credit grants and payments are applied once per key", async () => {
    const acct = await createAccount({ credits: 0 });
    const key = newKey();
    for (let i = 0; i < 3; i++) {
      const res = await postJson(`/admin/v1/accounts/${acct.accountId}/credits`, { amount: 40 }, { ...admin, ...idem(key) });
      expect(res.status).toBeLessThan(300);
    }
    expect(await balanceOf(acct.token)).toBe(40);
    const other = await postJson(`/admin/v1/accounts/${acct.accountId}/credits`, { amount: 41 }, { ...admin, ...idem(key) });
    expect(other.status).toBe(422);
  });

  it("refuses a malformed key with 400 and stores nothing for anonymous callers", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const pdf = await plainPdf(1);
    const bad = await postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, { ...withKey(acct.key), ...idem("x".repeat(256)) });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).code).toBe("bad_request");
    expect(await balanceOf(acct.token)).toBe(100);
    // Anonymous calls have no account to keep answers for: each one runs.
    const key = newKey();
    for (let i = 0; i < 2; i++) {
      const res = await postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, idem(key));
      expect(res.status).toBe(200);
      expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    }
  });

  it("a refusal such as 402 is the answer to that request: it is kept and replayed", async () => {
    const acct = await accountWithKey({ credits: 5 });
    const key = newKey();
    const pdf = await plainPdf(1);
    const poor = await postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, { ...withKey(acct.key), ...idem(key) });
    expect(poor.status).toBe(402);
    const poorAgain = await postForm(MERGE, { files: [file(pdf, "a.pdf"), file(pdf, "b.pdf")] }, { ...withKey(acct.key), ...idem(key) });
    expect(poorAgain.headers.get("Idempotent-Replayed")).toBe("true");
    expect(poorAgain.status).toBe(402);
  });
});
