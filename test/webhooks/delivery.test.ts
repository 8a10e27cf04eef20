import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../src/webhooks/backoff";
import { createAccount } from "../support/accounts";
import { call, problem, withToken } from "../support/http";
import {
  createEndpoint,
  fireAlarm,
  getDelivery,
  getEndpoint,
  listDeliveries,
  patchEndpoint,
  pay,
  redeliver,
  scheduledAlarm,
  sendTest,
  waitForDelivery,
  type Delivery,
} from "./support/hooks";
import { always, eventually, installNetwork, receiver, recoversAfter, setDns } from "./support/network";

// Deliveries end to end through the real local queue, consumer and endpoint
// Durable Object; the retry schedule is walked by firing the object's alarm
// (no real waiting). Every request a receiver gets is verified with the
// standardwebhooks package, as a subscriber would.

beforeAll(installNetwork);

const firstAttemptDone = (id: string) => (d: Delivery) => d.id === id && d.attempts === 1 && (d.status !== "pending" || d.last_error !== null);

describe("a successful delivery", () => {
  it("invoice.paid arrives signed, with payment_id, amount_cents and credits, and is logged delivered", async () => {
    const { accountId, token } = await createAccount({ plan: "pro" });
    const r = receiver(always(200));
    const ep = await createEndpoint(token, r.url, ["invoice.paid"]);
    const paymentId = await pay(accountId, undefined, 250);

    const d = await waitForDelivery(token, ep.id, (x) => x.status === "delivered", "invoice.paid delivered");
    expect(d).toMatchObject({ event: "invoice.paid", attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null });
    expect(d.delivered_at).not.toBeNull();

    const [payload] = r.verifiedWith(ep.secret);
    expect(r.requests).toHaveLength(1);
    expect(payload).toEqual({
      event: "invoice.paid",
      event_id: d.event_id,
      timestamp: expect.any(Number),
      data: { payment_id: paymentId, amount_cents: 1999, credits: 250 },
    });
    expect(Number.isInteger(payload.timestamp)).toBe(true);
    const h = r.requests[0].headers;
    expect(h["webhook-id"]).toBe(d.event_id);
    expect(h["webhook-event"]).toBe("invoice.paid");
    expect(h["content-type"]).toBe("application/json");
    expect(await scheduledAlarm(ep.id)).toBeNull();
  });
});

describe("retries", () => {
  it("walks 1m, 5m, 30m, 2h, 5h, 12h on the alarm, then dead-letters; one event_id throughout", async () => {
    const { token } = await createAccount();
    const r = receiver(always(500));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const test = await sendTest(token, ep.id);
    let d = await waitForDelivery(token, ep.id, firstAttemptDone(test.delivery_id), "first attempt");
    expect(d).toMatchObject({ status: "pending", last_status_code: 500, last_error: "HTTP 500" });

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const expectedAt = Date.parse(d.last_attempt_at!) + RETRY_DELAYS_MS[attempt - 1];
      expect(Date.parse(d.next_attempt_at!)).toBe(expectedAt);
      expect(await scheduledAlarm(ep.id)).toBe(expectedAt);
      expect(await fireAlarm(ep.id)).toBe(true);
      d = await getDelivery(token, ep.id, test.delivery_id);
      expect(d.attempts).toBe(attempt + 1);
      expect(r.requests).toHaveLength(attempt + 1);
    }
    expect(d).toMatchObject({ status: "dead", attempts: 7, next_attempt_at: null, last_status_code: 500 });
    expect(await scheduledAlarm(ep.id)).toBeNull();
    expect(await fireAlarm(ep.id)).toBe(false);

    const payloads = r.verifiedWith(ep.secret);
    expect(new Set(payloads.map((p) => p.event_id))).toEqual(new Set([test.event_id]));
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    expect(payloads[0].event).toBe("webhook.test");
  });

  it("a receiver that times out, then fails, then recovers: delivered on the third attempt", async () => {
    const { token } = await createAccount();
    const r = receiver((n) => (n === 1 ? "hang" : n === 2 ? 503 : 200));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const test = await sendTest(token, ep.id);
    const first = await waitForDelivery(token, ep.id, firstAttemptDone(test.delivery_id), "timed-out attempt");
    expect(first.last_error).toMatch(/^timeout/);
    expect(first.last_status_code).toBeNull();
    await fireAlarm(ep.id);
    expect(await getDelivery(token, ep.id, test.delivery_id)).toMatchObject({ status: "pending", attempts: 2, last_status_code: 503 });
    expect(await getEndpoint(token, ep.id)).toMatchObject({ consecutive_failures: 2, active: true });
    await fireAlarm(ep.id);
    expect(await getDelivery(token, ep.id, test.delivery_id)).toMatchObject({ status: "delivered", attempts: 3, last_status_code: 200, last_error: null });
    expect(await getEndpoint(token, ep.id)).toMatchObject({ consecutive_failures: 0 });
    expect(r.verifiedWith(ep.secret).map((p) => p.event_id)).toEqual([test.event_id, test.event_id, test.event_id]);
  });

  it("a redirect is a failure and is not followed", async () => {
    const { token } = await createAccount();
    const r = receiver(always(307));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const test = await sendTest(token, ep.id);
    const d = await waitForDelivery(token, ep.id, firstAttemptDone(test.delivery_id), "redirected attempt");
    expect(d).toMatchObject({ status: "pending", last_status_code: 307 });
    expect(d.last_error).toMatch(/redirect refused/);
    expect(r.requests).toHaveLength(1);
  });
});

describe("manual redelivery", () => {
  it("re-sends a dead delivery with the same event_id and body on a fresh schedule", async () => {
    const { token } = await createAccount();
    const r = receiver(always(500));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const test = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, firstAttemptDone(test.delivery_id));
    while (await fireAlarm(ep.id));
    expect((await getDelivery(token, ep.id, test.delivery_id)).status).toBe("dead");

    r.script = always(200);
    const res = await redeliver(token, ep.id, test.delivery_id);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ id: test.delivery_id, status: "pending", attempts: 0, redeliveries: 1 });
    const d = await waitForDelivery(token, ep.id, (x) => x.id === test.delivery_id && x.status === "delivered", "redelivered");
    expect(d).toMatchObject({ attempts: 1, redeliveries: 1, event_id: test.event_id });
    expect(r.requests).toHaveLength(8);
    expect(r.requests[7].body).toBe(r.requests[0].body);
    expect(r.verifiedWith(ep.secret)[7].event_id).toBe(test.event_id);

    const again = await problem(await redeliver(token, ep.id, test.delivery_id));
    expect([again.status, again.code]).toEqual([409, "delivery_not_redeliverable"]);
    expect((await problem(await redeliver(token, ep.id, "dlv_nope"))).code).toBe("not_found");
  });

  it("re-sends a failed delivery waiting for its retry at once, restarting its schedule", async () => {
    const { token } = await createAccount();
    const r = receiver(recoversAfter(1));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const test = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, firstAttemptDone(test.delivery_id));
    expect((await redeliver(token, ep.id, test.delivery_id)).status).toBe(202);
    const d = await waitForDelivery(token, ep.id, (x) => x.id === test.delivery_id && x.status === "delivered");
    expect(d.redeliveries).toBe(1);
    expect(r.verifiedWith(ep.secret).map((p) => p.event_id)).toEqual([test.event_id, test.event_id]);
    expect(await scheduledAlarm(ep.id)).toBeNull(); // the old 1-minute retry is gone
  });
});

describe("auto-disable after 15 consecutive failures", () => {
  it("disables the endpoint, alerts the owner once, stops deliveries; re-enabling resets the count", async () => {
    const { accountId, token } = await createAccount();
    const r = receiver(always(500));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    for (let i = 0; i < 15; i++) await sendTest(token, ep.id);
    const endpoint = await eventually(
      async () => {
        const e = await getEndpoint(token, ep.id);
        return e.active === false ? e : null;
      },
      20_000,
      "auto-disable",
    );
    expect(endpoint).toMatchObject({ active: false, disabled_reason: "consecutive_failures", consecutive_failures: 15 });
    expect(endpoint.disabled_at).not.toBeNull();

    const owner = await env.DB.prepare("SELECT email FROM users WHERE account_id = ? AND role = 'owner'").bind(accountId).first<{ email: string }>();
    const mail = await env.DB.prepare("SELECT to_email, template, body, sent_at, message_id FROM outbox_emails WHERE account_id = ?")
      .bind(accountId)
      .all<{ to_email: string; template: string; body: string; sent_at: string | null; message_id: string | null }>();
    expect(mail.results).toHaveLength(1);
    expect(mail.results[0]).toMatchObject({ to_email: owner!.email, template: "webhook_disabled" });
    // Sent through the EMAIL binding (miniflare's, locally) as soon as it was written.
    expect(mail.results[0].sent_at).not.toBeNull();
    expect(mail.results[0].message_id).toMatch(/@/);
    expect(mail.results[0].body).toContain(ep.id);

    // Retries due while disabled are not sent; they become dead (redeliverable later).
    const sent = r.requests.length;
    while (await fireAlarm(ep.id));
    expect(r.requests.length).toBe(sent);
    const log = await listDeliveries(token, ep.id, "?limit=100");
    expect(log.data.every((d) => d.status === "dead")).toBe(true);
    expect(log.data.some((d) => d.last_error === "endpoint inactive: not sent")).toBe(true);
    expect((await problem(await call(`/api/v1/webhooks/${ep.id}/test`, { method: "POST", headers: withToken(token) }))).code).toBe("webhook_inactive");

    const res = await patchEndpoint(token, ep.id, { active: true });
    expect(await res.json()).toMatchObject({ active: true, consecutive_failures: 0, disabled_reason: null, disabled_at: null });
  });
});

describe("secret rotation window", () => {
  it("during the window both secrets verify; after it only the new one", async () => {
    const { token } = await createAccount();
    const r = receiver(always(200));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const rotated = (await (await call(`/api/v1/webhooks/${ep.id}/rotate-secret`, { method: "POST", headers: withToken(token) })).json()) as { secret: string };

    const t1 = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, (d) => d.id === t1.delivery_id && d.status === "delivered");
    expect(r.requests[0].headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(r.verifiedWith(rotated.secret)[0].event_id).toBe(t1.event_id);
    expect(r.verifiedWith(ep.secret)[0].event_id).toBe(t1.event_id);

    // 24 hours later (simulated): the previous secret has expired.
    await env.DB.prepare("UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), ep.id)
      .run();
    const t2 = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, (d) => d.id === t2.delivery_id && d.status === "delivered");
    expect(r.requests[1].headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(r.verifiedWith(rotated.secret)[1].event_id).toBe(t2.event_id);
    expect(() => r.verifiedWith(ep.secret)).toThrow();
    expect(await getEndpoint(token, ep.id)).toMatchObject({ previous_secret_expires_at: null });
  });
});

describe("SSRF at every send", () => {
  it("a target whose DNS now points inside is refused at send time; nothing reaches it", async () => {
    const { token } = await createAccount();
    const host = `rebind-${crypto.randomUUID().slice(0, 8)}.example.com`;
    setDns(host, ["93.184.216.34"]);
    const r = receiver(always(200), { host });
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    setDns(host, ["10.0.0.8"]);
    const test = await sendTest(token, ep.id);
    const d = await waitForDelivery(token, ep.id, firstAttemptDone(test.delivery_id), "refused attempt");
    expect(d.status).toBe("pending");
    expect(d.last_error).toMatch(/^refused: .*10\.0\.0\.8.*private/);
    expect(r.requests).toHaveLength(0);

    setDns(host, ["93.184.216.34"]);
    await fireAlarm(ep.id);
    expect((await getDelivery(token, ep.id, test.delivery_id)).status).toBe("delivered");
    expect(r.verifiedWith(ep.secret)[0].event_id).toBe(test.event_id);
  });
});

describe("delivery log pagination", () => {
  it("pages newest first with an opaque cursor until next_cursor is null", async () => {
    const { token } = await createAccount();
    const ep = await createEndpoint(token, receiver(always(200)).url, ["job.failed"]);
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push((await sendTest(token, ep.id)).delivery_id);
    await eventually(async () => (await listDeliveries(token, ep.id, "?limit=100")).data.filter((d) => d.status === "delivered").length === 5, 15_000);

    const seen: string[] = [];
    let cursor: string | null = null;
    const pages: number[] = [];
    do {
      const page: { data: Delivery[]; next_cursor: string | null } = await listDeliveries(
        token,
        ep.id,
        `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      pages.push(page.data.length);
      seen.push(...page.data.map((d) => d.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages).toEqual([2, 2, 1]);
    expect(new Set(seen)).toEqual(new Set(sent));
    const all = (await listDeliveries(token, ep.id)).data;
    expect(all.map((d) => d.id)).toEqual(seen); // pages concatenate to the whole log, in one order
    const created = all.map((d) => Date.parse(d.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a)); // newest first
  });
});
