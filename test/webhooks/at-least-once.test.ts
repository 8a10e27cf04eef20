import { createExecutionContext, createMessageBatch, getQueueResult, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { LAST_ATTEMPT_LEASE_MS, RETRY_DELAYS_MS } from "../../src/webhooks/backoff";
import { handleWebhookBatch, queueRetryDelay } from "../../src/webhooks/consumer";
import { emitEvent } from "../../src/webhooks/emit";
import type { WebhookEndpoint } from "../../src/webhooks/endpoint-do";
import { enqueueDeliveries } from "../../src/webhooks/enqueue";
import { deliveryMessage, newEnvelope, type DeliveryMessage } from "../../src/webhooks/messages";
import { loadSendTargets } from "../../src/webhooks/store";
import type { Env } from "../../src/env";
import { createAccount } from "../support/accounts";
import { createEndpoint, endpointObject, fireAlarm, getDelivery, scheduledAlarm, type CreatedEndpoint } from "./support/hooks";
import { always, installNetwork, receiver, type Receiver } from "./support/network";

// Nothing is lost and duplicates keep their event_id: the consumer is driven
// with hand-made batches (createMessageBatch / getQueueResult) to stage the
// failures a real queue and runtime can produce.

beforeAll(installNetwork);

async function setup(): Promise<{ token: string; ep: CreatedEndpoint; r: Receiver; msg: DeliveryMessage }> {
  const { accountId, token } = await createAccount();
  const r = receiver(always(200));
  const ep = await createEndpoint(token, r.url, ["job.failed"]);
  const msg = deliveryMessage(
    { id: ep.id, accountId },
    newEnvelope("job.failed", { tool: "merge-pdf", operation: "pdf.merge", request_id: "r1", credits: 0, error_code: "x" }),
  );
  return { token, ep, r, msg };
}

async function consume(messages: DeliveryMessage[], deps?: Parameters<typeof handleWebhookBatch>[2]) {
  const batch = createMessageBatch<DeliveryMessage>(
    "docapi-webhooks",
    messages.map((body, i) => ({ id: `m${i}-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await handleWebhookBatch(batch, env, deps);
  return getQueueResult(batch, ctx);
}

describe("duplicates", () => {
  it("the same message twice (a queue redelivery) sends once", async () => {
    const { token, ep, r, msg } = await setup();
    const result = await consume([msg, msg]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    expect(r.requests).toHaveLength(1);
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("a malformed message is acknowledged and dropped, not retried forever", async () => {
    const batch = createMessageBatch("docapi-webhooks", [{ id: "bad-1", timestamp: new Date(), attempts: 1, body: { hello: "world" } }]);
    const ctx = createExecutionContext();
    await handleWebhookBatch(batch, env);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["bad-1"]);
  });
});

describe("crashes", () => {
  it("a consumer that dies after claiming the attempt: the alarm re-sends with the same event_id, the queue does not", async () => {
    const { token, ep, r, msg } = await setup();
    const stub = endpointObject(ep.id);
    const claimedAt = Date.now();
    expect(await stub.begin(msg, true)).toEqual({ go: true, attempt: 1 }); // ...and the consumer dies here
    const lease = await scheduledAlarm(ep.id);
    expect(lease! - claimedAt).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0] - 50);
    expect(lease! - claimedAt).toBeLessThanOrEqual(RETRY_DELAYS_MS[0] + 1000);

    // The queue re-delivers the unacknowledged message: acknowledged, not sent again.
    const result = await consume([msg]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(r.requests).toHaveLength(0);

    await fireAlarm(ep.id);
    expect(r.requests).toHaveLength(1);
    expect(r.verifiedWith(ep.secret)[0].event_id).toBe(msg.event_id);
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("a consumer that dies during the last attempt: the delivery becomes dead after the lease, never stuck", async () => {
    const { token, ep, msg } = await setup();
    const stub = endpointObject(ep.id);
    await stub.begin(msg, true);
    // Attempts 1-6 are spent (simulated); attempt 7 is claimed and its sender dies.
    await runInDurableObject(stub, (_o: WebhookEndpoint, state) => {
      state.storage.sql.exec("UPDATE deliveries SET attempts = 7, next_attempt_at = ? WHERE id = ?", Date.now() + LAST_ATTEMPT_LEASE_MS, msg.delivery_id);
    });
    await fireAlarm(ep.id);
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "dead", last_error: "the last attempt never reported an outcome" });
    expect(await scheduledAlarm(ep.id)).toBeNull();
  });

  it("a late report from a superseded attempt is ignored", async () => {
    const { token, ep, msg } = await setup();
    const stub = endpointObject(ep.id);
    await stub.begin(msg, true);
    await stub.finish(msg.delivery_id, 0, 1, { ok: false, statusCode: 500, error: "HTTP 500", durationMs: 1 });
    await fireAlarm(ep.id); // attempt 2 succeeds against the real receiver
    await stub.finish(msg.delivery_id, 0, 1, { ok: false, statusCode: 502, error: "HTTP 502", durationMs: 1 });
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "delivered", attempts: 2, last_status_code: 200 });
  });
});

describe("outages", () => {
  it("the consumer cannot read D1: the message is retried by the queue, then delivered", async () => {
    const { token, ep, r, msg } = await setup();
    const failing = await consume([msg], {
      loadTargets: async () => {
        throw new Error("D1 unavailable");
      },
    });
    expect(failing.retryMessages).toHaveLength(1);
    // getQueueResult does not report delaySeconds; the delay is a pure function of the message's attempts.
    expect([1, 2, 3, 20].map(queueRetryDelay)).toEqual([10, 20, 40, 3600]);
    expect(failing.explicitAcks).toEqual([]);
    expect(r.requests).toHaveLength(0);

    const ok = await consume([msg], { loadTargets: loadSendTargets });
    expect(ok.explicitAcks).toHaveLength(1);
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "delivered" });
  });

  it("the queue refuses the event: it is recorded in the endpoint object and sent by its alarm", async () => {
    const { token, ep, r, msg } = await setup();
    const brokenQueue = {
      send: async () => {
        throw new Error("queue unavailable");
      },
      sendBatch: async () => {
        throw new Error("queue unavailable");
      },
    } as unknown as Queue<DeliveryMessage>;
    await enqueueDeliveries({ ...env, WEBHOOK_QUEUE: brokenQueue }, [msg]);
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "pending", attempts: 0 });
    expect(await scheduledAlarm(ep.id)).not.toBeNull();
    await fireAlarm(ep.id);
    expect(r.requests).toHaveLength(1);
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("a redelivery whose queue message is lost is still sent, by the alarm", async () => {
    const { token, ep, r, msg } = await setup();
    r.script = always(500);
    await consume([msg]);
    while (await fireAlarm(ep.id));
    r.script = always(200);
    const result = await endpointObject(ep.id).redeliver(msg.delivery_id); // ...and the enqueue is lost
    expect(result.ok).toBe(true);
    expect(await scheduledAlarm(ep.id)).not.toBeNull();
    await fireAlarm(ep.id);
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "delivered", redeliveries: 1, attempts: 1 });
    expect(new Set(r.verifiedWith(ep.secret).map((p) => p.event_id))).toEqual(new Set([msg.event_id]));
  });

  it("an alarm run that cannot reach D1 re-arms itself a minute later instead of stranding the delivery", async () => {
    const { token, ep, r, msg } = await setup();
    r.script = (n) => (n === 1 ? 500 : 200);
    await consume([msg]);
    const brokenDb = {
      prepare: () => {
        throw new Error("D1 unavailable");
      },
    } as unknown as D1Database;
    const before = Date.now();
    const rearmed = await runInDurableObject(endpointObject(ep.id), async (instance: WebhookEndpoint, state) => {
      const real = Reflect.get(instance, "env") as Env;
      Reflect.set(instance, "env", { ...real, DB: brokenDb });
      try {
        await state.storage.deleteAlarm(); // as the runtime does when it fires an alarm
        await instance.alarm();
      } finally {
        Reflect.set(instance, "env", real);
      }
      return state.storage.getAlarm();
    });
    expect(rearmed! - before).toBeGreaterThanOrEqual(59_000);
    expect(rearmed! - before).toBeLessThan(70_000);
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "pending", attempts: 1 });
    await fireAlarm(ep.id);
    expect(await getDelivery(token, ep.id, msg.delivery_id)).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("emitEvent never throws, even when D1 is down (the caller's operation must not fail)", async () => {
    const brokenDb = {
      prepare: () => {
        throw new Error("D1 unavailable");
      },
    } as unknown as D1Database;
    await expect(emitEvent({ ...env, DB: brokenDb }, "acc_x", "job.completed", {})).resolves.toBeUndefined();
    await expect(emitEvent(env, "acc_x", "no.such.event", {})).resolves.toBeUndefined();
  });
});
