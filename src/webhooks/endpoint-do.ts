import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { MAX_ATTEMPTS } from "./backoff";
import { attemptDelivery, runResolver } from "./attempt";
import { DeliveryLog, type DeliveryRow, type DeliveryStatus } from "./delivery-log";
import type { DeliveryMessage } from "./messages";
import type { AttemptOutcome } from "./send";
import { loadSendTargets } from "./store";

// One per webhook endpoint (named by its id). It owns the endpoint's delivery
// log and retry schedule: the queue consumer makes each delivery's first
// attempt through begin/finish; every later attempt is made here, from the
// alarm. A delivery is claimed (leased) before each send, so whichever sender
// dies, the alarm picks the delivery up, and the queue never retries it.

/** Deliveries sent per alarm run; the rest wait for the next run (subrequest limits). */
const ALARM_BATCH = 25;
/** Deliveries due within this much of the alarm time go in the same run. */
const COALESCE_MS = 1_000;
/** After an alarm run fails (D1 unreachable, ...), the next try. */
const ALARM_RETRY_MS = 60_000;
/** A redelivery not picked up from the queue within this long is sent by the alarm. */
const REDELIVERY_LEASE_MS = 60_000;
export const INACTIVE_ERROR = "endpoint inactive: not sent";

export interface DeliveryView {
  id: string;
  event: string;
  event_id: string;
  status: DeliveryRow["status"];
  attempts: number;
  redeliveries: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface DeliveryDetail extends DeliveryView {
  payload: string;
  attempt_log: { round: number; attempt: number; sent_at: string; status_code: number | null; error: string | null; duration_ms: number }[];
}

export type BeginResult = { go: true; attempt: number } | { go: false };
export type RedeliverResult = { ok: true; message: DeliveryMessage; delivery: DeliveryView } | { ok: false; reason: "not_found" | "not_redeliverable" };

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function deliveryView(r: DeliveryRow): DeliveryView {
  return {
    id: r.id,
    event: r.event,
    event_id: r.event_id,
    status: r.status,
    attempts: r.attempts,
    redeliveries: r.round,
    next_attempt_at: r.status === "pending" ? iso(r.next_attempt_at) : null,
    last_attempt_at: iso(r.last_attempt_at),
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    created_at: iso(r.created_at)!,
    delivered_at: iso(r.delivered_at),
  };
}

export class WebhookEndpoint extends DurableObject<Env> {
  private log: DeliveryLog;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.log = new DeliveryLog(ctx.storage);
  }

  /** Consumer, step 1: record the delivery (once) and claim its first attempt. */
  async begin(m: DeliveryMessage, endpointActive: boolean): Promise<BeginResult> {
    const now = Date.now();
    this.adopt(m);
    this.log.insertIfNew(m, now);
    this.log.prune(now);
    const row = this.log.get(m.delivery_id);
    if (!this.log.unstarted(row, m.round)) return { go: false };
    if (!endpointActive) {
      this.log.markDead(row.id, INACTIVE_ERROR);
    } else {
      this.log.lease(row.id, 1, now);
    }
    await this.reschedule();
    return endpointActive ? { go: true, attempt: 1 } : { go: false };
  }

  /** Consumer, step 2: the outcome of the attempt it claimed. */
  async finish(deliveryId: string, round: number, attempt: number, outcome: AttemptOutcome): Promise<void> {
    this.log.finish(deliveryId, round, attempt, outcome, Date.now());
    await this.reschedule();
  }

  /** Fallback when the queue refused a message: record it and let the alarm send it now. */
  async accept(m: DeliveryMessage): Promise<void> {
    const now = Date.now();
    this.adopt(m);
    this.log.insertIfNew(m, now);
    const row = this.log.get(m.delivery_id);
    if (this.log.unstarted(row, m.round)) this.log.dueNow(row.id, now);
    await this.reschedule();
  }

  async list(limit: number, beforeSeq: number | null, status: DeliveryStatus | null = null): Promise<{ data: DeliveryView[]; nextSeq: number | null }> {
    const rows = this.log.page(limit, beforeSeq, status);
    const more = rows.length > limit;
    const data = rows.slice(0, limit);
    return { data: data.map(deliveryView), nextSeq: more ? data[data.length - 1].seq : null };
  }

  /** One delivery with the exact body every attempt sends (and signs) and each attempt's outcome; the list leaves both out. */
  async delivery(id: string): Promise<DeliveryDetail | null> {
    const row = this.log.get(id);
    if (!row) return null;
    const history = this.log.attempts(id).map((a) => ({
      round: a.round,
      attempt: a.attempt,
      sent_at: iso(a.sent_at)!,
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
    }));
    return { ...deliveryView(row), payload: row.body, attempt_log: history };
  }

  /** Manual redelivery of a dead delivery, or of a pending one whose last attempt failed. */
  async redeliver(id: string): Promise<RedeliverResult> {
    const row = this.log.get(id);
    if (!row) return { ok: false, reason: "not_found" };
    const failed = row.status === "dead" || (row.status === "pending" && row.attempts > 0 && row.last_error !== null);
    if (!failed) return { ok: false, reason: "not_redeliverable" };
    const now = Date.now();
    const fresh = this.log.restart(id, now + REDELIVERY_LEASE_MS);
    await this.reschedule();
    const message: DeliveryMessage = {
      v: 1,
      delivery_id: fresh.id,
      endpoint_id: this.log.meta("endpoint_id")!,
      account_id: this.log.meta("account_id")!,
      round: fresh.round,
      event: fresh.event,
      event_id: fresh.event_id,
      timestamp: fresh.event_timestamp,
      body: fresh.body,
      emitted_at: now,
    };
    return { ok: true, message, delivery: deliveryView(fresh) };
  }

  /** The endpoint was deleted: drop its log and schedule. */
  async purge(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.log = new DeliveryLog(this.ctx.storage);
  }

  override async alarm(): Promise<void> {
    try {
      await this.runDue();
    } catch (err) {
      // The runtime gives up on an alarm after a few failed retries; pending
      // deliveries must not be stranded, so try again in a minute ourselves.
      console.error("webhooks: alarm run failed; retrying in a minute", err);
      const retryAt = Date.now() + ALARM_RETRY_MS;
      await this.ctx.storage.setAlarm(retryAt);
      this.log.setMeta("alarm_at", String(retryAt));
    }
  }

  private async runDue(): Promise<void> {
    const endpointId = this.log.meta("endpoint_id");
    if (!endpointId) return;
    const now = Date.now();
    // The runtime never fires an alarm early; the test helper
    // runDurableObjectAlarm does, and this makes it walk the schedule.
    const horizon = Math.max(now, Number(this.log.meta("alarm_at") ?? 0)) + COALESCE_MS;
    const due = this.log.due(horizon, ALARM_BATCH);
    if (due.length === 0) return this.reschedule(true);

    const target = (await loadSendTargets(this.env, [endpointId])).get(endpointId);
    if (!target) return this.purge();

    const claimed: { row: DeliveryRow; attempt: number }[] = [];
    for (const row of due) {
      if (row.attempts >= MAX_ATTEMPTS) this.log.markDead(row.id, "the last attempt never reported an outcome");
      else if (!target.active) this.log.markDead(row.id, INACTIVE_ERROR);
      else {
        this.log.lease(row.id, row.attempts + 1, now);
        claimed.push({ row, attempt: row.attempts + 1 });
      }
    }
    await this.reschedule(true);

    const resolve = runResolver();
    await Promise.all(
      claimed.map(async ({ row, attempt }) => {
        const outcome = await attemptDelivery(this.env, target, row, resolve);
        this.log.finish(row.id, row.round, attempt, outcome, Date.now());
      }),
    );
    await this.reschedule(true);
  }

  /** Remembers which endpoint (and account) this object serves, for the alarm and redelivery. */
  private adopt(m: DeliveryMessage): void {
    if (this.log.meta("endpoint_id")) return;
    this.log.setMeta("endpoint_id", m.endpoint_id);
    this.log.setMeta("account_id", m.account_id);
  }

  /**
   * One alarm at the earliest pending recheck time, or none. `force` (from
   * inside alarm()) always re-arms: whether getAlarm() still reports the alarm
   * that is running is not something to rely on.
   */
  private async reschedule(force = false): Promise<void> {
    const next = this.log.nextWake();
    const current = this.log.meta("alarm_at");
    if (next === null) {
      if (current !== null) {
        await this.ctx.storage.deleteAlarm();
        this.log.setMeta("alarm_at", null);
      }
      return;
    }
    if (force || current !== String(next) || (await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(next);
      this.log.setMeta("alarm_at", String(next));
    }
  }
}
