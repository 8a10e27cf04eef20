import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { DeliveryLog, RETENTION_MS } from "../../src/webhooks/delivery-log";
import { deliveryMessage, newEnvelope } from "../../src/webhooks/messages";
import { createAccount } from "../support/accounts";
import { call, problem, withToken } from "../support/http";
import { createEndpoint, fireAlarm, listDeliveries, sendTest, waitForDelivery, type Delivery } from "./support/hooks";
import { always, installNetwork, receiver, recoversAfter } from "./support/network";

// The delivery log as the console reads it (issue #17): a server-side status
// filter on the list, and the detail of one delivery with the exact payload
// its attempts sent and signed.

beforeAll(installNetwork);

type Attempt = { round: number; attempt: number; sent_at: string; status_code: number | null; error: string | null; duration_ms: number };
type Detail = Delivery & { payload: string; attempt_log: Attempt[] };

async function detail(token: string, endpointId: string, deliveryId: string): Promise<Response> {
  return call(`/api/v1/webhooks/${endpointId}/deliveries/${deliveryId}`, { headers: withToken(token) });
}

const firstAttemptFailed = (id: string) => (d: Delivery) => d.id === id && d.attempts === 1 && d.last_error !== null;

describe("delivery detail", () => {
  it("carries the payload byte for byte as the receiver got it and verified its signature; the list leaves it out", async () => {
    const { token } = await createAccount();
    const r = receiver(always(200));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const test = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, (d) => d.id === test.delivery_id && d.status === "delivered", "test delivered");

    const res = await detail(token, ep.id, test.delivery_id);
    expect(res.status).toBe(200);
    const d = (await res.json()) as Detail;
    expect(d).toMatchObject({ id: test.delivery_id, event: "webhook.test", event_id: test.event_id, status: "delivered", last_status_code: 200 });
    expect(r.requests).toHaveLength(1);
    expect(d.payload).toBe(r.requests[0].body);
    const [verified] = r.verifiedWith(ep.secret);
    expect(JSON.parse(d.payload)).toEqual(verified);
    expect(verified).toMatchObject({ event: "webhook.test", event_id: test.event_id, data: { endpoint_id: ep.id } });
    // Nothing of the signing secret or the signature headers is exposed with it.
    expect(JSON.stringify(d)).not.toContain(ep.secret.replace(/^whsec_/, ""));
    expect(JSON.stringify(d)).not.toContain(r.requests[0].headers["webhook-signature"]);

    const listed = (await listDeliveries(token, ep.id)).data.find((x) => x.id === test.delivery_id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty("payload");
  });

  it("lists each attempt's outcome, oldest first; the list leaves it out", async () => {
    const { token } = await createAccount();
    const r = receiver(recoversAfter(1, 503));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const test = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, firstAttemptFailed(test.delivery_id), "first attempt failed");
    expect(await fireAlarm(ep.id)).toBe(true);

    const d = (await (await detail(token, ep.id, test.delivery_id)).json()) as Detail;
    expect(d.status).toBe("delivered");
    expect(d.attempt_log.map(({ round, attempt, status_code, error }) => ({ round, attempt, status_code, error }))).toEqual([
      { round: 0, attempt: 1, status_code: 503, error: "HTTP 503" },
      { round: 0, attempt: 2, status_code: 200, error: null },
    ]);
    expect(Date.parse(d.attempt_log[0].sent_at)).toBeLessThanOrEqual(Date.parse(d.attempt_log[1].sent_at));
    expect(d.attempt_log[1].sent_at).toBe(d.last_attempt_at);
    expect(d.attempt_log.every((a) => Number.isInteger(a.duration_ms) && a.duration_ms >= 0)).toBe(true);
    expect((await listDeliveries(token, ep.id)).data[0]).not.toHaveProperty("attempt_log");
  });

  it("keeps the attempts of earlier rounds when a dead delivery is redelivered", async () => {
    const { token } = await createAccount();
    const r = receiver(always(500));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const test = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, firstAttemptFailed(test.delivery_id), "first attempt failed");
    while (await fireAlarm(ep.id));
    r.script = always(200);
    const redo = await call(`/api/v1/webhooks/${ep.id}/deliveries/${test.delivery_id}/redeliver`, { method: "POST", headers: withToken(token) });
    expect(redo.status).toBe(202);
    await waitForDelivery(token, ep.id, (x) => x.id === test.delivery_id && x.status === "delivered", "redelivered");
    const d = (await (await detail(token, ep.id, test.delivery_id)).json()) as Detail;
    expect(d.attempt_log.map((a) => [a.round, a.attempt, a.status_code])).toEqual([...[1, 2, 3, 4, 5, 6, 7].map((n) => [0, n, 500]), [1, 1, 200]]);
    expect(r.requests).toHaveLength(8);
  });

  it("another account's delivery is a 404, as is an unknown id", async () => {
    const owner = await createAccount();
    const stranger = await createAccount();
    const ep = await createEndpoint(owner.token, receiver().url, ["job.failed"]);
    const test = await sendTest(owner.token, ep.id);
    await waitForDelivery(owner.token, ep.id, (d) => d.id === test.delivery_id && d.status === "delivered");
    const foreign = await problem(await detail(stranger.token, ep.id, test.delivery_id));
    expect([foreign.status, foreign.code]).toEqual([404, "not_found"]);
    const unknown = await problem(await detail(owner.token, ep.id, "dlv_0000"));
    expect([unknown.status, unknown.code]).toEqual([404, "not_found"]);
  });
});

describe("delivery list ?status=", () => {
  it("returns only deliveries in that state, newest first, and pages within the filter", async () => {
    const { token } = await createAccount();
    const r = receiver(always(200));
    const ep = await createEndpoint(token, r.url, ["job.failed"]);
    const a = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, (d) => d.id === a.delivery_id && d.status === "delivered", "A delivered");
    const b = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, (d) => d.id === b.delivery_id && d.status === "delivered", "B delivered");
    r.script = always(500);
    const c = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, firstAttemptFailed(c.delivery_id), "C failed once");
    while (await fireAlarm(ep.id));
    const d = await sendTest(token, ep.id);
    await waitForDelivery(token, ep.id, firstAttemptFailed(d.delivery_id), "D failed once");

    const ids = async (query: string) => (await listDeliveries(token, ep.id, query)).data.map((x) => [x.id, x.status]);
    expect(await ids("")).toEqual([
      [d.delivery_id, "pending"],
      [c.delivery_id, "dead"],
      [b.delivery_id, "delivered"],
      [a.delivery_id, "delivered"],
    ]);
    expect(await ids("?status=delivered")).toEqual([
      [b.delivery_id, "delivered"],
      [a.delivery_id, "delivered"],
    ]);
    expect(await ids("?status=dead")).toEqual([[c.delivery_id, "dead"]]);
    expect(await ids("?status=pending")).toEqual([[d.delivery_id, "pending"]]);

    // A cursor taken from a filtered page continues that filter: C (dead) and D (pending) lie between the pages.
    const first = await listDeliveries(token, ep.id, "?status=delivered&limit=1");
    expect(first.data.map((x) => x.id)).toEqual([b.delivery_id]);
    expect(first.next_cursor).not.toBeNull();
    const second = await listDeliveries(token, ep.id, `?status=delivered&limit=1&cursor=${first.next_cursor}`);
    expect(second).toEqual({ data: [expect.objectContaining({ id: a.delivery_id })], next_cursor: null });
  });

  it("an unknown status is a 422 validation_failed naming the parameter", async () => {
    const { token } = await createAccount();
    const ep = await createEndpoint(token, receiver().url, ["job.failed"]);
    for (const q of ["?status=failed", "?status=", "?status=DEAD"]) {
      const p = await problem(await call(`/api/v1/webhooks/${ep.id}/deliveries${q}`, { headers: withToken(token) }));
      expect([p.status, p.code], q).toEqual([422, "validation_failed"]);
      expect(
        p.errors?.some((e) => e.field === "status"),
        q,
      ).toBe(true);
    }
  });
});

describe("attempt log retention", () => {
  it("a pruned delivery takes its attempts with it", async () => {
    const stub = env.WEBHOOK_ENDPOINT.get(env.WEBHOOK_ENDPOINT.idFromName(`attempts-prune-${crypto.randomUUID()}`));
    await runInDurableObject(stub, (_instance, state) => {
      const log = new DeliveryLog(state.storage);
      const now = 100 * 86_400_000;
      const old = now - RETENTION_MS - 1;
      const [a, b] = [0, 1].map(() => deliveryMessage({ id: "whk_t", accountId: "acc_t" }, newEnvelope("job.failed", { n: 1 })));
      for (const m of [a, b]) {
        log.insertIfNew(m, m === a ? old : now);
        log.lease(m.delivery_id, 1, m === a ? old : now);
        log.finish(m.delivery_id, 0, 1, { ok: true, statusCode: 204, error: null, durationMs: 3 }, m === a ? old : now);
      }
      expect(log.attempts(a.delivery_id)).toHaveLength(1);
      log.prune(now);
      expect(log.get(a.delivery_id)).toBeNull();
      expect(log.attempts(a.delivery_id)).toEqual([]);
      expect(log.attempts(b.delivery_id)).toEqual([{ round: 0, attempt: 1, sent_at: now, status_code: 204, error: null, duration_ms: 3 }]);
    });
  });
});
