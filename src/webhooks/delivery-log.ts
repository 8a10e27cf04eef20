import { type DurableMigrations, migrateDurableStorage } from "../db/durable-migrations";
import { afterFailure, recheckAt } from "./backoff";
import type { DeliveryMessage } from "./messages";
import type { AttemptOutcome } from "./send";

// The delivery log of one endpoint, in its Durable Object's SQLite storage.
// All statements are synchronous, so each method is atomic within the object.

/** Every state a delivery can be in; the list's `?status=` filter accepts exactly these. */
export const DELIVERY_STATUSES = ["pending", "delivered", "dead"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type DeliveryRow = {
  seq: number;
  id: string;
  event: string;
  event_id: string;
  event_timestamp: number;
  body: string;
  status: DeliveryStatus;
  round: number;
  attempts: number;
  /** Epoch ms. Pending: the next attempt, or the lease of the one in flight. */
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
  emitted_at: number;
};

/** Delivered and dead entries are kept this long, then pruned. */
export const RETENTION_MS = 30 * 86_400_000;

/** This log's storage, one version per entry (src/db/durable-migrations.ts). */
export const DELIVERY_LOG_MIGRATIONS: DurableMigrations = [
  // 1: the log, and key-value meta: the endpoint and account it belongs to, the alarm it has set.
  `CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  event TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_timestamp INTEGER NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,
  round INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_attempt_at INTEGER,
  last_status_code INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  delivered_at INTEGER,
  emitted_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_pending ON deliveries(status, next_attempt_at);
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT);`,
  // 2: one row per attempt that reported an outcome (the delivery detail's history); pruned with its delivery.
  `CREATE TABLE attempts (
  delivery_id TEXT NOT NULL,
  round INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  sent_at INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  duration_ms INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, round, attempt)
);`,
];

export type AttemptRow = {
  round: number;
  attempt: number;
  /** Epoch ms. */
  sent_at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
};

export class DeliveryLog {
  private readonly sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    migrateDurableStorage(storage, DELIVERY_LOG_MIGRATIONS);
    this.sql = storage.sql;
  }

  meta(k: string): string | null {
    const row = this.sql.exec<{ v: string }>("SELECT v FROM meta WHERE k = ?", k).toArray()[0];
    return row ? row.v : null;
  }

  setMeta(k: string, v: string | null): void {
    if (v === null) this.sql.exec("DELETE FROM meta WHERE k = ?", k);
    else this.sql.exec("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", k, v);
  }

  /** Records a delivery once; a repeated message (queue retry) changes nothing. */
  insertIfNew(m: DeliveryMessage, now: number): void {
    this.sql.exec(
      `INSERT OR IGNORE INTO deliveries (id, event, event_id, event_timestamp, body, status, round, attempts, created_at, emitted_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, 0, ?, ?)`,
      m.delivery_id,
      m.event,
      m.event_id,
      m.timestamp,
      m.body,
      m.round,
      now,
      m.emitted_at,
    );
  }

  get(id: string): DeliveryRow | null {
    return this.sql.exec<DeliveryRow>("SELECT * FROM deliveries WHERE id = ?", id).toArray()[0] ?? null;
  }

  /** True when `round` of this delivery has not started its first attempt yet. */
  unstarted(row: DeliveryRow | null, round: number): row is DeliveryRow {
    return !!row && row.status === "pending" && row.round === round && row.attempts === 0;
  }

  /** Claims `attempt` before it is sent; the recheck time covers a sender that dies. */
  lease(id: string, attempt: number, now: number): void {
    this.sql.exec("UPDATE deliveries SET attempts = ?, last_attempt_at = ?, next_attempt_at = ? WHERE id = ?", attempt, now, recheckAt(attempt, now), id);
  }

  /** Makes an unstarted delivery due now (fallback path: the alarm sends it). */
  dueNow(id: string, now: number): void {
    this.sql.exec("UPDATE deliveries SET next_attempt_at = ? WHERE id = ?", now, id);
  }

  /** Applies an attempt's outcome; a report for an attempt that is no longer current is ignored. */
  finish(id: string, round: number, attempt: number, o: AttemptOutcome, now: number): void {
    const row = this.get(id);
    if (row?.status !== "pending" || row.round !== round || row.attempts !== attempt) return;
    this.sql.exec(
      "INSERT OR IGNORE INTO attempts (delivery_id, round, attempt, sent_at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
      id,
      round,
      attempt,
      row.last_attempt_at ?? now,
      o.statusCode,
      o.ok ? null : o.error,
      Math.round(o.durationMs),
    );
    if (o.ok) {
      this.sql.exec(
        `UPDATE deliveries SET status = 'delivered', delivered_at = ?, next_attempt_at = NULL,
                last_status_code = ?, last_error = NULL WHERE id = ?`,
        now,
        o.statusCode,
        id,
      );
      return;
    }
    const next = afterFailure(attempt, row.last_attempt_at ?? now);
    this.sql.exec(
      "UPDATE deliveries SET status = ?, next_attempt_at = ?, last_status_code = ?, last_error = ? WHERE id = ?",
      next.kind === "dead" ? "dead" : "pending",
      next.kind === "dead" ? null : next.at,
      o.statusCode,
      o.error,
      id,
    );
  }

  markDead(id: string, error: string): void {
    this.sql.exec("UPDATE deliveries SET status = 'dead', next_attempt_at = NULL, last_error = ? WHERE id = ?", error, id);
  }

  /** Back to pending with a fresh schedule; `leaseUntil` covers a lost queue message. */
  restart(id: string, leaseUntil: number): DeliveryRow {
    this.sql.exec(
      `UPDATE deliveries SET status = 'pending', round = round + 1, attempts = 0, next_attempt_at = ?,
              delivered_at = NULL WHERE id = ?`,
      leaseUntil,
      id,
    );
    return this.get(id)!;
  }

  /** Every recorded attempt of a delivery, across redeliveries, oldest first. */
  attempts(id: string): AttemptRow[] {
    return this.sql
      .exec<AttemptRow>("SELECT round, attempt, sent_at, status_code, error, duration_ms FROM attempts WHERE delivery_id = ? ORDER BY round, attempt", id)
      .toArray();
  }

  due(horizon: number, limit: number): DeliveryRow[] {
    return this.sql
      .exec<DeliveryRow>("SELECT * FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?", horizon, limit)
      .toArray();
  }

  nextWake(): number | null {
    const row = this.sql.exec<{ t: number | null }>("SELECT MIN(next_attempt_at) AS t FROM deliveries WHERE status = 'pending'").toArray()[0];
    return row?.t ?? null;
  }

  /** Newest first, optionally of one status; `beforeSeq` is the cursor. Returns one extra row to tell if more remain. */
  page(limit: number, beforeSeq: number | null, status: DeliveryStatus | null = null): DeliveryRow[] {
    const before = beforeSeq ?? Number.MAX_SAFE_INTEGER;
    if (status === null) {
      return this.sql.exec<DeliveryRow>("SELECT * FROM deliveries WHERE seq < ? ORDER BY seq DESC LIMIT ?", before, limit + 1).toArray();
    }
    return this.sql.exec<DeliveryRow>("SELECT * FROM deliveries WHERE status = ? AND seq < ? ORDER BY seq DESC LIMIT ?", status, before, limit + 1).toArray();
  }

  /** Drops finished entries past retention, at most 50 per call; one row read when nothing is due. */
  prune(now: number): void {
    const cutoff = now - RETENTION_MS;
    const oldest = this.sql.exec<{ created_at: number }>("SELECT created_at FROM deliveries ORDER BY seq LIMIT 1").toArray()[0];
    if (!oldest || oldest.created_at >= cutoff) return;
    // Both statements pick the same 50 rows: nothing runs between them in the object.
    const expired = "SELECT id FROM deliveries WHERE created_at < ? AND status <> 'pending' ORDER BY seq LIMIT 50";
    this.sql.exec(`DELETE FROM attempts WHERE delivery_id IN (${expired})`, cutoff);
    this.sql.exec(`DELETE FROM deliveries WHERE id IN (${expired})`, cutoff);
  }
}
