import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { EVENT_KEYS } from "../../src/webhooks/catalog";
import { mailedInviteToken } from "../accounts/support";
import { createAccount, createKey, uniqueEmail } from "../support/accounts";
import { BASE, call, postJson, problem, withKey, withToken } from "../support/http";
import { createEndpoint, getEndpoint, listDeliveries, patchEndpoint, sendTest } from "./support/hooks";
import { installNetwork, receiver, setDns } from "./support/network";

// Webhook management over HTTP (docs/reference/webhooks.md, Endpoints and
// SSRF policy): records, validation, plan tiers, who may
// call, and the SSRF check at create and update.

beforeAll(installNetwork);

async function member(ownerToken: string, role: "admin" | "member"): Promise<string> {
  const email = uniqueEmail(role);
  const inv = await postJson("/api/v1/team/invitations", { email, role }, withToken(ownerToken));
  expect(inv.status).toBe(201);
  const acc = await postJson("/api/v1/team/invitations/accept", { invite_token: await mailedInviteToken(email) });
  expect(acc.status).toBe(200);
  return ((await acc.json()) as { token: string }).token;
}

describe("create, read, list", () => {
  it("creates an endpoint and shows its secret once; list and get never show a secret", async () => {
    const { token } = await createAccount({ plan: "pro" });
    const r = receiver();
    const res = await postJson(
      "/api/v1/webhooks/",
      { url: r.url, events: ["invoice.paid", "job.completed", "invoice.paid"], description: "billing" },
      withToken(token),
    );
    const created = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(201);
    expect(created).toMatchObject({ url: r.url, events: ["invoice.paid", "job.completed"], description: "billing", active: true, consecutive_failures: 0 });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.id).toMatch(/^whk_/);

    for (const path of ["/api/v1/webhooks/", "/api/v1/webhooks", `/api/v1/webhooks/${created.id}`]) {
      const got = await call(path, { headers: withToken(token) });
      expect(got.status).toBe(200);
      const text = await got.text();
      expect(text).toContain(String(created.id));
      expect(text).not.toContain("whsec_");
      expect(text).not.toContain(String(created.secret).slice(6, 26));
      expect(text).not.toMatch(/"secret|sealed/);
    }
    // The database holds only the sealed form.
    const row = await env.DB.prepare("SELECT secret_sealed FROM webhook_endpoints WHERE id = ?").bind(created.id).first<{ secret_sealed: string }>();
    expect(row!.secret_sealed).not.toContain(String(created.secret).slice(6));
  });

  it("POST without the trailing slash routes too", async () => {
    const { token } = await createAccount({ plan: "pro" });
    const res = await postJson("/api/v1/webhooks", { url: receiver().url, events: ["job.failed"] }, withToken(token));
    expect(res.status).toBe(201);
  });

  it("another account's endpoint is a 404", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const ep = await createEndpoint(a.token, receiver().url);
    const res = await call(`/api/v1/webhooks/${ep.id}`, { headers: withToken(b.token) });
    expect((await problem(res)).code).toBe("not_found");
    const del = await call(`/api/v1/webhooks/${ep.id}`, { method: "DELETE", headers: withToken(b.token) });
    expect(del.status).toBe(404);
  });
});

describe("validation", () => {
  it("refuses no events, unknown events, a long description and a missing url with field errors", async () => {
    const { token } = await createAccount();
    const url = receiver().url;
    const cases: [Record<string, unknown>, string][] = [
      [{ url, events: [] }, "events"],
      [{ url, events: ["invoice.paid", "invoice.exploded"] }, "events.1"],
      [{ url, events: ["job.failed"], description: "x".repeat(301) }, "description"],
      [{ events: ["job.failed"] }, "url"],
    ];
    for (const [body, field] of cases) {
      const p = await problem(await postJson("/api/v1/webhooks/", body, withToken(token)));
      expect(p.status).toBe(422);
      expect(p.code).toBe("validation_failed");
      expect(p.errors?.map((e) => e.field)).toContain(field);
    }
    const ok = await postJson("/api/v1/webhooks/", { url, events: ["job.failed"], description: "x".repeat(300) }, withToken(token));
    expect(ok.status).toBe(201);
  });
});

describe("plan tiers (docs/reference/webhooks.md, Event catalogue)", () => {
  const FREE_TIER = ["credits.low", "job.completed", "job.failed", "job.processing", "job.queued"];

  for (const plan of ["free", "starter"]) {
    it(`${plan}: event-types lists only Free-tier events, and Pro-tier subscriptions are refused`, async () => {
      const { token } = await createAccount({ plan });
      const res = await call("/api/v1/webhooks/event-types", { headers: withToken(token) });
      const body = (await res.json()) as { plan: string; data: { event: string; tier: string; category: string; data: object }[] };
      expect(body.plan).toBe(plan);
      expect(body.data.map((e) => e.event).sort()).toEqual(FREE_TIER);
      expect(body.data.every((e) => e.tier === "free")).toBe(true);
      const denied = await problem(await postJson("/api/v1/webhooks/", { url: receiver().url, events: ["job.completed", "invoice.paid"] }, withToken(token)));
      expect(denied.status).toBe(403);
      expect(denied.code).toBe("plan_required");
      expect(denied.detail).toContain("invoice.paid");
      const ok = await postJson("/api/v1/webhooks/", { url: receiver().url, events: FREE_TIER }, withToken(token));
      expect(ok.status).toBe(201);
      const ep = (await ok.json()) as { id: string };
      expect((await problem(await patchEndpoint(token, ep.id, { events: ["team.member.joined"] }))).code).toBe("plan_required");
    });
  }

  for (const plan of ["pro", "enterprise"]) {
    it(`${plan}: every catalogued event is available`, async () => {
      const { token } = await createAccount({ plan });
      const body = (await (await call("/api/v1/webhooks/event-types", { headers: withToken(token) })).json()) as { data: { event: string }[] };
      expect(body.data.map((e) => e.event).sort()).toEqual([...EVENT_KEYS].sort());
      expect(body.data).toHaveLength(14);
    });
  }
});

describe("who may manage webhooks (Authentication rule 9)", () => {
  it("owner and admin may; a member, an API key and an anonymous caller may not", async () => {
    const { token } = await createAccount({ plan: "pro" });
    const adminToken = await member(token, "admin");
    const memberToken = await member(token, "member");
    const key = await createKey(token);
    const url = receiver().url;
    expect((await postJson("/api/v1/webhooks/", { url, events: ["job.failed"] }, withToken(adminToken))).status).toBe(201);

    for (const [headers, status, code] of [
      [withToken(memberToken), 403, "permission_denied"],
      [withKey(key.api_key), 403, "forbidden"],
      [{}, 401, "unauthorized"],
    ] as const) {
      for (const [method, path] of [
        ["GET", "/api/v1/webhooks/"],
        ["GET", "/api/v1/webhooks/event-types"],
        ["POST", "/api/v1/webhooks/"],
      ]) {
        const res = await call(path, {
          method,
          headers: { "Content-Type": "application/json", ...headers },
          body: method === "POST" ? JSON.stringify({ url, events: ["job.failed"] }) : undefined,
        });
        const p = await problem(res);
        expect([p.status, p.code]).toEqual([status, code]);
      }
    }
  });
});

describe("SSRF check at create and update", () => {
  it("refuses private, link-local, metadata, mapped and CGNAT targets even with the dev flags on", async () => {
    const { token } = await createAccount();
    for (const url of [
      "http://10.0.0.1/h",
      "http://169.254.169.254/latest",
      "http://[::ffff:127.0.0.1]/h",
      "http://100.64.0.1/",
      "http://[fe80::1]/",
      "http://224.0.0.1/",
    ]) {
      const p = await problem(await postJson("/api/v1/webhooks/", { url, events: ["job.failed"] }, withToken(token)));
      expect([p.status, p.code, p.errors?.[0]?.field]).toEqual([422, "unsafe_webhook_url", "url"]);
    }
  });

  it("resolves host names: one pointing at a private address is refused, a public one accepted", async () => {
    const { token } = await createAccount();
    const host = `hooks-${crypto.randomUUID().slice(0, 8)}.example.com`;
    setDns(host, ["192.168.10.20"]);
    const p = await problem(await postJson("/api/v1/webhooks/", { url: `https://${host}/in`, events: ["job.failed"] }, withToken(token)));
    expect(p.code).toBe("unsafe_webhook_url");
    expect(p.detail).toContain("192.168.10.20");
    setDns(host, ["93.184.216.34"]);
    const ep = await createEndpoint(token, `https://${host}/in`, ["job.failed"]);
    const bad = await problem(await patchEndpoint(token, ep.id, { url: "https://[fd00::1]/x" }));
    expect(bad.code).toBe("unsafe_webhook_url");
  });

  it("with the production flags (both false), a loopback or plain-http target is refused", async () => {
    const { token } = await createAccount();
    const strictEnv = { ...env, ALLOW_PRIVATE_WEBHOOK_TARGETS: "false", ALLOW_INSECURE_WEBHOOKS: "false" };
    const send = async (url: string) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request(`${BASE}/api/v1/webhooks/`, {
          method: "POST",
          body: JSON.stringify({ url, events: ["job.failed"] }),
          headers: { "Content-Type": "application/json", ...withToken(token) },
        }),
        strictEnv,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return problem(res);
    };
    expect((await send("https://127.0.0.1:8443/h")).code).toBe("unsafe_webhook_url");
    expect((await send("https://localhost/h")).code).toBe("unsafe_webhook_url");
    const insecure = await send("http://93.184.216.34/h");
    expect(insecure.code).toBe("unsafe_webhook_url");
    expect(insecure.detail).toMatch(/https/);
  });
});

describe("update, rotate, delete", () => {
  it("PATCH updates url, events, description and active; an empty body is refused", async () => {
    const { token } = await createAccount();
    const ep = await createEndpoint(token, receiver().url);
    const next = receiver().url;
    const res = await patchEndpoint(token, ep.id, { url: next, events: ["job.completed"], description: null, active: false });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ url: next, events: ["job.completed"], description: null, active: false, disabled_reason: null });
    expect((await problem(await patchEndpoint(token, ep.id, {}))).code).toBe("validation_failed");
    expect((await problem(await postJson(`/api/v1/webhooks/${ep.id}/test`, {}, withToken(token)))).code).toBe("webhook_inactive");
    expect(await getEndpoint(token, ep.id)).toMatchObject({ active: false });
  });

  it("rotate-secret answers a new secret and opens a 24 h window for the previous one", async () => {
    const { token } = await createAccount();
    const ep = await createEndpoint(token, receiver().url);
    const before = Date.now();
    const res = await postJson(`/api/v1/webhooks/${ep.id}/rotate-secret`, {}, withToken(token));
    const body = (await res.json()) as { secret: string; previous_secret_expires_at: string };
    expect(res.status).toBe(200);
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.secret).not.toBe(ep.secret);
    const window = Date.parse(body.previous_secret_expires_at) - before;
    expect(window).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(window).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    const list = await (await call("/api/v1/webhooks/", { headers: withToken(token) })).text();
    expect(list).not.toContain("whsec_");
  });

  it("DELETE answers 204; the endpoint and its log are gone", async () => {
    const { token } = await createAccount();
    const ep = await createEndpoint(token, receiver().url);
    await sendTest(token, ep.id);
    const del = await call(`/api/v1/webhooks/${ep.id}`, { method: "DELETE", headers: withToken(token) });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
    expect((await call(`/api/v1/webhooks/${ep.id}`, { headers: withToken(token) })).status).toBe(404);
    expect((await call(`/api/v1/webhooks/${ep.id}/deliveries`, { headers: withToken(token) })).status).toBe(404);
  });

  it("an account may hold 25 endpoints; the 26th is refused", async () => {
    const { token } = await createAccount();
    const url = receiver().url;
    for (let i = 0; i < 25; i++) expect((await postJson("/api/v1/webhooks/", { url, events: ["job.failed"] }, withToken(token))).status).toBe(201);
    const p = await problem(await postJson("/api/v1/webhooks/", { url, events: ["job.failed"] }, withToken(token)));
    expect([p.status, p.code]).toEqual([403, "webhook_limit_reached"]);
  });
});

describe("delivery log parameters", () => {
  it("limit must be 1..100 and the cursor one we issued", async () => {
    const { token } = await createAccount();
    const ep = await createEndpoint(token, receiver().url);
    for (const q of ["?limit=0", "?limit=101", "?limit=abc", "?cursor=bogus"]) {
      const p = await problem(await call(`/api/v1/webhooks/${ep.id}/deliveries${q}`, { headers: withToken(token) }));
      expect([p.status, p.code]).toEqual([422, "validation_failed"]);
    }
    expect(await listDeliveries(token, ep.id)).toEqual({ data: [], next_cursor: null });
  });
});
