import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_CATALOG, EVENT_KEYS, isKnownEvent } from "../../src/webhooks/catalog";
import { SUBSCRIBERS_SQL } from "../../src/webhooks/store";
import { mailedInviteToken } from "../accounts/support";
import { createAccount, createKey, uniqueEmail } from "../support/accounts";
import { ADMIN_TOKEN, call, pdfFile, postForm, postJson, withKey, withToken } from "../support/http";
import { makePdf } from "../support/pdf.mjs";
import { createEndpoint, listDeliveries, pay, sendTest } from "./support/hooks";
import { always, eventually, installNetwork, receiver, type Receiver } from "./support/network";

// Every catalogued event really fires from the operation that causes it
// (docs/reference/webhooks.md, Event catalogue), arrives signed, and carries
// exactly the `data` fields the catalogue documents.

beforeAll(installNetwork);

type Payload = { event: string; event_id: string; timestamp: number; data: Record<string, unknown> };

async function arrived(r: Receiver, secret: string, events: string[]): Promise<Map<string, Payload[]>> {
  return eventually(
    async () => {
      const byEvent = new Map<string, Payload[]>();
      for (const p of r.verifiedWith(secret)) byEvent.set(p.event, [...(byEvent.get(p.event) ?? []), p]);
      return events.every((e) => byEvent.has(e)) ? byEvent : null;
    },
    20_000,
    `events ${events.join(", ")}`,
  );
}

function expectDocumentedShape(p: Payload): void {
  expect(isKnownEvent(p.event)).toBe(true);
  const documented = Object.keys(EVENT_CATALOG[p.event as keyof typeof EVENT_CATALOG].data).sort();
  expect(Object.keys(p.data).sort(), p.event).toEqual(documented);
}

const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

describe("events emitted by the operations that cause them", () => {
  it("billing, key, team and job events reach a subscriber of the whole catalogue", async () => {
    const { accountId, token } = await createAccount({ plan: "pro", credits: 1000 });
    const r = receiver(always(200));
    const ep = await createEndpoint(token, r.url, [...EVENT_KEYS]);

    const paymentId = await pay(accountId, undefined, 40);
    expect(
      (await postJson(`/admin/v1/accounts/${accountId}/payment-failures`, { payment_id: "pay_x", amount_cents: 500, reason: "card_declined" }, admin)).status,
    ).toBe(202);
    expect(
      (
        await call(`/admin/v1/accounts/${accountId}`, {
          method: "PATCH",
          body: JSON.stringify({ plan: "enterprise" }),
          headers: { "Content-Type": "application/json", ...admin },
        })
      ).status,
    ).toBe(200);

    const key = await createKey(token, { name: "events" });
    expect((await call(`/api/v1/keys/${key.id}`, { method: "DELETE", headers: withToken(token) })).status).toBe(204);

    const email = uniqueEmail("joiner");
    const inv = (await (await postJson("/api/v1/team/invitations", { email, role: "member" }, withToken(token))).json()) as { id: string };
    const joined = (await (await postJson("/api/v1/team/invitations/accept", { invite_token: await mailedInviteToken(email) })).json()) as {
      user: { id: string };
    };
    const patchRole = await call(`/api/v1/team/members/${joined.user.id}`, {
      method: "PATCH",
      body: JSON.stringify({ role: "admin" }),
      headers: { "Content-Type": "application/json", ...withToken(token) },
    });
    expect(patchRole.status).toBe(200);
    expect((await call(`/api/v1/team/members/${joined.user.id}`, { method: "DELETE", headers: withToken(token) })).status).toBe(204);

    const toolKey = await createKey(token, { name: "tools" });
    const pdfs = [pdfFile(await makePdf({ pages: 1 }), "a.pdf"), pdfFile(await makePdf({ pages: 1 }), "b.pdf")];
    const ok = await postForm("/api/v1/pdf/merge/merge", { files: pdfs }, withKey(toolKey.api_key));
    expect(ok.status).toBe(200);
    const okRequest = ok.headers.get("X-Request-Id");
    const garbage = [pdfFile(new TextEncoder().encode("%PDF-1.4 not really"), "x.pdf"), pdfFile(new TextEncoder().encode("junk"), "y.pdf")];
    const bad = await postForm("/api/v1/pdf/merge/merge", { files: garbage }, withKey(toolKey.api_key));
    expect(bad.status).toBeGreaterThanOrEqual(400);
    const badRequest = bad.headers.get("X-Request-Id");

    const wanted = EVENT_KEYS.filter((e) => e !== "credits.low");
    const got = await arrived(r, ep.secret, wanted);
    for (const list of got.values()) for (const p of list) expectDocumentedShape(p);

    const one = (e: string, pred: (p: Payload) => boolean = () => true) => got.get(e)!.find(pred)!;
    expect(one("invoice.paid").data).toEqual({ payment_id: paymentId, amount_cents: 1999, credits: 40 });
    expect(one("invoice.payment_failed").data).toEqual({ payment_id: "pay_x", amount_cents: 500, reason: "card_declined" });
    expect(one("subscription.updated").data).toEqual({ previous_plan: "pro", plan: "enterprise" });
    expect(one("apikey.created", (p) => p.data.key_id === key.id).data).toMatchObject({ name: "events" });
    expect(one("apikey.revoked").data).toEqual({ key_id: key.id, name: "events" });
    expect(one("team.member.invited").data).toMatchObject({ invitation_id: inv.id, email, role: "member" });
    expect(one("team.member.joined").data).toEqual({ user_id: joined.user.id, email, role: "member", invitation_id: inv.id });
    expect(one("team.member.role_changed").data).toMatchObject({ user_id: joined.user.id, previous_role: "member", role: "admin" });
    expect(one("team.member.removed").data).toMatchObject({ user_id: joined.user.id, email, role: "admin" });

    for (const e of ["job.queued", "job.processing", "job.completed"]) {
      expect(one(e, (p) => p.data.request_id === okRequest).data).toMatchObject({ tool: "merge-pdf", operation: "pdf.merge", credits: 10 });
    }
    expect(one("job.completed", (p) => p.data.request_id === okRequest).data.output_url).toMatch(/merged\.pdf$/);
    expect(one("job.failed").data).toMatchObject({ tool: "merge-pdf", request_id: badRequest, credits: 0, error_code: expect.any(String) });
    expect(got.get("job.completed")!.some((p) => p.data.request_id === badRequest)).toBe(false);
  });

  it("credits.low and job events reach a Free-plan subscriber", async () => {
    const { token } = await createAccount({ plan: "free", credits: 10 });
    const r = receiver(always(200));
    const ep = await createEndpoint(token, r.url, ["credits.low", "job.completed"]);
    const res = await postForm(
      "/api/v1/pdf/merge/merge",
      { files: [pdfFile(await makePdf({ pages: 1 }), "a.pdf"), pdfFile(await makePdf({ pages: 1 }), "b.pdf")] },
      withToken(token),
    );
    expect(res.status).toBe(200);
    const got = await arrived(r, ep.secret, ["credits.low", "job.completed"]);
    expect(got.get("credits.low")![0].data).toEqual({ balance: 0 });
    expect(got.get("job.completed")![0].data).toMatchObject({ tool: "merge-pdf", credits: 10 });
  });

  it("one event to two endpoints carries one event_id", async () => {
    const { accountId, token } = await createAccount({ plan: "pro" });
    const [a, b] = [receiver(always(200)), receiver(always(200))];
    const [ea, eb] = [await createEndpoint(token, a.url), await createEndpoint(token, b.url)];
    await pay(accountId);
    const [pa, pb] = [
      (await arrived(a, ea.secret, ["invoice.paid"])).get("invoice.paid")!,
      (await arrived(b, eb.secret, ["invoice.paid"])).get("invoice.paid")!,
    ];
    expect(pa[0].event_id).toBe(pb[0].event_id);
  });
});

describe("who is not sent an event", () => {
  it("a plan downgrade stops Pro-tier events at emit time; unsubscribed and inactive endpoints get nothing", async () => {
    const { accountId, token } = await createAccount({ plan: "pro" });
    const r = receiver(always(200));
    const ep = await createEndpoint(token, r.url, ["invoice.paid", "job.failed"]);
    const idle = receiver(always(200));
    await createEndpoint(token, idle.url, ["apikey.created"]);
    const off = receiver(always(200));
    const offEp = await createEndpoint(token, off.url, ["invoice.paid"]);
    await call(`/api/v1/webhooks/${offEp.id}`, {
      method: "PATCH",
      body: JSON.stringify({ active: false }),
      headers: { "Content-Type": "application/json", ...withToken(token) },
    });

    await call(`/admin/v1/accounts/${accountId}`, {
      method: "PATCH",
      body: JSON.stringify({ plan: "free" }),
      headers: { "Content-Type": "application/json", ...admin },
    });
    await pay(accountId);
    // The payment's event, had it been queued, was queued before this test delivery.
    const marker = await sendTest(token, ep.id);
    await eventually(async () => (await listDeliveries(token, ep.id)).data.find((d) => d.id === marker.delivery_id && d.status === "delivered"), 15_000);
    await new Promise((res) => setTimeout(res, 1500));
    expect((await listDeliveries(token, ep.id)).data.map((d) => d.event)).toEqual(["webhook.test"]);
    expect(idle.requests).toHaveLength(0);
    expect(off.requests).toHaveLength(0);
  });
});

describe("the hot path", () => {
  it("the subscriber lookup of emitEvent is one indexed query", async () => {
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${SUBSCRIBERS_SQL}`).bind("acc_x", "job.completed").all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join(" | ");
    expect(details).toMatch(/SEARCH e USING INDEX webhook_endpoints_account/);
    expect(details).not.toMatch(/SCAN e\b/);
  });
});
