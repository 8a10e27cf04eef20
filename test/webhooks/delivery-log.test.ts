import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../src/webhooks/backoff";
import { DeliveryLog, RETENTION_MS } from "../../src/webhooks/delivery-log";
import { deliveryMessage, newEnvelope } from "../../src/webhooks/messages";

// The delivery log's state machine on a real Durable Object SQLite store
// (a throwaway object per test, used only for its storage).

function withLog<R>(fn: (log: DeliveryLog, sql: SqlStorage) => R): Promise<R> {
  const stub = env.WEBHOOK_ENDPOINT.get(env.WEBHOOK_ENDPOINT.idFromName(`log-test-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_instance, state) => fn(new DeliveryLog(state.storage), state.storage.sql));
}

const message = () => deliveryMessage({ id: "whk_t", accountId: "acc_t" }, newEnvelope("job.failed", { n: 1 }));
const fail = { ok: false, statusCode: 500, error: "HTTP 500", durationMs: 1 };
const ok = { ok: true, statusCode: 200, error: null, durationMs: 1 };

describe("DeliveryLog", () => {
  it("records a message once, however often it arrives", () =>
    withLog((log, sql) => {
      const m = message();
      log.insertIfNew(m, 1000);
      log.insertIfNew(m, 2000);
      expect(sql.exec("SELECT COUNT(*) AS n FROM deliveries").one().n).toBe(1);
      expect(log.get(m.delivery_id)).toMatchObject({ status: "pending", attempts: 0, created_at: 1000, body: m.body });
    }));

  it("walks pending -> pending ... -> dead, each retry from the attempt's start", () =>
    withLog((log) => {
      const m = message();
      log.insertIfNew(m, 0);
      let t = 0;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        log.lease(m.delivery_id, attempt, t);
        log.finish(m.delivery_id, 0, attempt, fail, t + 5);
        const row = log.get(m.delivery_id)!;
        if (attempt < MAX_ATTEMPTS) {
          expect(row).toMatchObject({ status: "pending", attempts: attempt, next_attempt_at: t + RETRY_DELAYS_MS[attempt - 1] });
          t = row.next_attempt_at!;
        } else {
          expect(row).toMatchObject({ status: "dead", attempts: 7, next_attempt_at: null, last_error: "HTTP 500" });
        }
      }
      expect(log.nextWake()).toBeNull();
    }));

  it("ignores a report for an attempt that is not the current one", () =>
    withLog((log) => {
      const m = message();
      log.insertIfNew(m, 0);
      log.lease(m.delivery_id, 1, 0);
      log.lease(m.delivery_id, 2, 60_000); // the alarm took over
      log.finish(m.delivery_id, 0, 1, ok, 60_001);
      expect(log.get(m.delivery_id)).toMatchObject({ status: "pending", attempts: 2 });
      log.finish(m.delivery_id, 0, 2, ok, 60_002);
      expect(log.get(m.delivery_id)).toMatchObject({ status: "delivered", delivered_at: 60_002 });
      log.finish(m.delivery_id, 0, 2, fail, 60_003);
      expect(log.get(m.delivery_id)!.status).toBe("delivered");
    }));

  it("restart opens a new round; reports from the old round are ignored", () =>
    withLog((log) => {
      const m = message();
      log.insertIfNew(m, 0);
      log.lease(m.delivery_id, 1, 0);
      const fresh = log.restart(m.delivery_id, 90_000);
      expect(fresh).toMatchObject({ status: "pending", round: 1, attempts: 0, next_attempt_at: 90_000 });
      expect(log.unstarted(fresh, 1)).toBe(true);
      expect(log.unstarted(fresh, 0)).toBe(false);
      log.finish(m.delivery_id, 0, 1, ok, 1);
      expect(log.get(m.delivery_id)!.status).toBe("pending");
    }));

  it("prunes finished entries past 30 days, keeps pending and recent ones", () =>
    withLog((log) => {
      const now = 100 * 86_400_000;
      const old = now - RETENTION_MS - 1;
      const [a, b, c] = [message(), message(), message()];
      log.insertIfNew(a, old);
      log.insertIfNew(b, old);
      log.insertIfNew(c, now);
      log.lease(a.delivery_id, 1, old);
      log.finish(a.delivery_id, 0, 1, ok, old); // delivered, old: pruned
      // b: pending and old: kept (still owed)
      log.prune(now);
      expect(log.get(a.delivery_id)).toBeNull();
      expect(log.get(b.delivery_id)).not.toBeNull();
      expect(log.get(c.delivery_id)).not.toBeNull();
    }));
});
