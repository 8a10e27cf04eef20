import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { balanceOf, createAccount, createKey, uniqueEmail } from "../support/accounts";
import { ADMIN_TOKEN, call, postJson, problem, withKey, withToken } from "../support/http";

const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

describe("operator API and account", () => {
  it("creates an account with an owner and a working JWT", async () => {
    const email = uniqueEmail("boot");
    const res = await postJson("/admin/v1/accounts", { name: "Acme", plan: "starter", credits: 250, owner_email: email }, admin);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { account: Record<string, unknown>; owner: Record<string, unknown>; token: string };
    expect(body.account).toMatchObject({ name: "Acme", plan: "starter", balance: 250 });
    expect(body.owner).toMatchObject({ email, role: "owner" });
    const me = (await (await call("/api/v1/account", { headers: withToken(body.token) })).json()) as Record<string, unknown>;
    expect(me).toEqual(body.account);
  });

  it("refuses a wrong operator token and bad bodies", async () => {
    const wrong = await postJson("/admin/v1/accounts", { name: "x", owner_email: uniqueEmail() }, { Authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    const bad = await postJson("/admin/v1/accounts", { name: "x", plan: "platinum", owner_email: "not-an-email" }, admin);
    expect(bad.status).toBe(422);
    const fields = (await problem(bad)).errors?.map((e) => e.field).sort();
    expect(fields).toEqual(["owner_email", "plan"]);
    const malformed = await call("/admin/v1/accounts", { method: "POST", body: "{", headers: { ...admin, "Content-Type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect((await problem(malformed)).code).toBe("invalid_json");
  });

  it("changes plans, adds and removes credits", async () => {
    const acc = await createAccount({ plan: "free", credits: 100 });
    const patched = await call(`/admin/v1/accounts/${acc.accountId}`, {
      method: "PATCH",
      body: JSON.stringify({ plan: "enterprise" }),
      headers: { ...admin, "Content-Type": "application/json" },
    });
    expect(((await patched.json()) as { plan: string }).plan).toBe("enterprise");
    await postJson(`/admin/v1/accounts/${acc.accountId}/credits`, { amount: 40 }, admin);
    expect(await balanceOf(acc.token)).toBe(140);
    await postJson(`/admin/v1/accounts/${acc.accountId}/credits`, { amount: -100 }, admin);
    expect(await balanceOf(acc.token)).toBe(40);
    expect((await call(`/admin/v1/accounts/acc_missing`, { headers: admin })).status).toBe(404);
  });

  it("payments add credits once per payment_id and land in the ledger", async () => {
    const acc = await createAccount({ credits: 0 });
    const payment = { payment_id: `pay_${crypto.randomUUID()}`, amount_cents: 4900, credits: 5000 };
    const first = await postJson(`/admin/v1/accounts/${acc.accountId}/payments`, payment, admin);
    expect(first.status).toBe(201);
    const again = await postJson(`/admin/v1/accounts/${acc.accountId}/payments`, payment, admin);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { duplicate: boolean }).duplicate).toBe(true);
    expect(await balanceOf(acc.token)).toBe(5000);
    const ledger = await env.DB.prepare("SELECT kind, credits, balance_after FROM credit_ledger WHERE account_id = ?").bind(acc.accountId).all();
    expect(ledger.results).toEqual([{ kind: "grant", credits: 5000, balance_after: 5000 }]);
  });

  it("issues user tokens; a removed user's token stops working at once", async () => {
    const acc = await createAccount();
    const res = await postJson(`/admin/v1/users/${acc.ownerId}/tokens`, { ttl_seconds: 600 }, admin);
    const { token } = (await res.json()) as { token: string };
    expect((await call("/api/v1/account", { headers: withToken(token) })).status).toBe(200);
    await env.DB.prepare("UPDATE users SET removed_at = ? WHERE id = ?").bind(new Date().toISOString(), acc.ownerId).run();
    const after = await call("/api/v1/account", { headers: withToken(token) });
    expect(after.status).toBe(401);
  });

  it("GET /api/v1/account works with a key that has read, not with a write-only key", async () => {
    const acc = await createAccount({ credits: 77 });
    const reader = await createKey(acc.token, { permissions: ["read"] });
    const writer = await createKey(acc.token, { permissions: ["write"] });
    const ok = await call("/api/v1/account", { headers: withKey(reader.api_key) });
    expect(((await ok.json()) as { balance: number }).balance).toBe(77);
    const denied = await call("/api/v1/account", { headers: withKey(writer.api_key) });
    expect(denied.status).toBe(403);
    expect((await problem(denied)).code).toBe("permission_denied");
    expect((await call("/api/v1/account")).status).toBe(401);
  });
});
