import { DurableObject } from "cloudflare:workers";
import { LOW_CREDIT_RATIO } from "../config";
import { type DurableMigrations, migrateDurableStorage } from "../db/durable-migrations";
import type { Env } from "../env";
import { finishJob } from "../jobs/store";
import { recordLedger } from "./meter";

// One AccountMeter per account (idFromName(accountId)). It is the only writer
// of that account's balance and of its keys' monthly spend. A Durable Object
// runs one event at a time and its SQLite calls are synchronous, so each
// method below is a critical section with no await inside: the budget check,
// the balance check and both debits happen as one atomic step, whichever key
// or JWT of the account is spending. Debits and refunds are idempotent on
// the request id. A tool call's debit stays open until the call settles it;
// one its call never settles (the client left mid-call, and the Worker's
// code after an await never ran) is refunded by the object's alarm once the
// call cannot be running any more.

export interface ChargeRequest {
  requestId: string;
  credits: number;
  keyId: string | null;
  /** The key's monthly credit_limit, or null for no per-key budget. */
  keyLimit: number | null;
  /**
   * When the call must have settled (see settle): an open charge past this
   * is refunded by the object's alarm, since its call can no longer be
   * running (its client left and the Worker's code after an await never
   * ran). Omitted: the charge is final at once.
   */
  settleBy?: number;
  /** What the alarm writes to the D1 ledger and the job row when it refunds an open charge. */
  mirror?: { accountId: string; operation: string; userId: string | null };
}

export interface SettleOutcome {
  /** False when the charge had already been refunded (the call was given up on): its result must not be delivered. */
  settled: boolean;
}

export type ChargeOutcome =
  | { ok: true; balance: number; replayed: boolean; crossedLow: boolean }
  | { ok: false; reason: "insufficient_credits" | "budget_exceeded"; balance: number };

export interface RefundOutcome {
  refunded: boolean;
  credits: number;
  balance: number;
}

export interface MeterState {
  balance: number;
  lastTopUp: number;
}

/** Calendar month in UTC, the unit of key budgets. */
export function budgetMonth(at = new Date()): string {
  return at.toISOString().slice(0, 7);
}

/** The meter's storage, one version per entry (src/db/durable-migrations.ts). */
export const METER_MIGRATIONS: DurableMigrations = [
  // 1: the balance, per-key monthly spend, charges (idempotent on request id) and grants.
  `CREATE TABLE IF NOT EXISTS meter (id INTEGER PRIMARY KEY CHECK (id = 1), balance INTEGER NOT NULL, last_topup INTEGER NOT NULL);
   INSERT OR IGNORE INTO meter (id, balance, last_topup) VALUES (1, 0, 0);
   CREATE TABLE IF NOT EXISTS key_spend (key_id TEXT NOT NULL, month TEXT NOT NULL, used INTEGER NOT NULL, PRIMARY KEY (key_id, month));
   CREATE TABLE IF NOT EXISTS charges (request_id TEXT PRIMARY KEY, key_id TEXT, month TEXT NOT NULL, credits INTEGER NOT NULL, refunded INTEGER NOT NULL DEFAULT 0, at INTEGER NOT NULL);
   CREATE TABLE IF NOT EXISTS grants (ref TEXT PRIMARY KEY, credits INTEGER NOT NULL, at INTEGER NOT NULL);`,
  // 2: charges whose call has not answered yet; the alarm refunds those past settle_by.
  `CREATE TABLE IF NOT EXISTS open_charges (request_id TEXT PRIMARY KEY, settle_by INTEGER NOT NULL, account_id TEXT NOT NULL, operation TEXT NOT NULL, key_id TEXT, user_id TEXT);
   CREATE INDEX IF NOT EXISTS open_charges_settle_by ON open_charges (settle_by);`,
];

export class AccountMeter extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateDurableStorage(ctx.storage, METER_MIGRATIONS);
    this.sql = ctx.storage.sql;
  }

  state(): MeterState {
    const row = this.sql.exec<{ balance: number; last_topup: number }>("SELECT balance, last_topup FROM meter WHERE id = 1").one();
    return { balance: row.balance, lastTopUp: row.last_topup };
  }

  async charge(req: ChargeRequest): Promise<ChargeOutcome> {
    const outcome = this.debit(req);
    if (outcome.ok && !outcome.replayed && req.settleBy !== undefined && req.mirror) {
      this.sql.exec(
        "INSERT INTO open_charges (request_id, settle_by, account_id, operation, key_id, user_id) VALUES (?, ?, ?, ?, ?, ?)",
        req.requestId,
        req.settleBy,
        req.mirror.accountId,
        req.mirror.operation,
        req.keyId,
        req.mirror.userId,
      );
      await this.scheduleSweep();
    }
    return outcome;
  }

  /**
   * The call answered: its charge is final. A charge the alarm (or the
   * call's own abort listener) already refunded stays refunded, and the
   * caller learns it must not deliver the result it was not charged for.
   */
  async settle(requestId: string): Promise<SettleOutcome> {
    this.sql.exec("DELETE FROM open_charges WHERE request_id = ?", requestId);
    const rows = this.sql.exec<{ refunded: number }>("SELECT refunded FROM charges WHERE request_id = ?", requestId).toArray();
    await this.scheduleSweep();
    return { settled: rows.length === 0 || rows[0].refunded === 0 };
  }

  /** Refunds every open charge past its settle_by, mirrors each to D1, and waits for the next one. */
  override async alarm(): Promise<void> {
    const due = this.sql
      .exec<{ request_id: string; account_id: string; operation: string; key_id: string | null; user_id: string | null }>(
        "SELECT request_id, account_id, operation, key_id, user_id FROM open_charges WHERE settle_by <= ?",
        Date.now(),
      )
      .toArray();
    for (const open of due) {
      const outcome = this.refund(open.request_id);
      if (!outcome.refunded) continue;
      await this.mirrorAbandoned(open, outcome);
    }
    await this.scheduleSweep();
  }

  private async mirrorAbandoned(
    open: { request_id: string; account_id: string; operation: string; key_id: string | null; user_id: string | null },
    outcome: RefundOutcome,
  ): Promise<void> {
    // The meter has decided; D1 mirrors it for reports and may lag or fail.
    try {
      await recordLedger(this.env, {
        accountId: open.account_id,
        kind: "refund",
        credits: outcome.credits,
        balanceAfter: outcome.balance,
        requestId: open.request_id,
        operation: open.operation,
        keyId: open.key_id,
        userId: open.user_id,
      });
      await finishJob(this.env, open.request_id, { status: "failed", errorCode: "request_cancelled" });
    } catch (err) {
      console.error("mirroring an abandoned call's refund failed", err);
    }
  }

  private async scheduleSweep(): Promise<void> {
    const next = this.sql.exec<{ at: number | null }>("SELECT MIN(settle_by) AS at FROM open_charges").one().at;
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(next);
  }

  private debit(req: ChargeRequest): ChargeOutcome {
    const before = this.state();
    const previous = this.sql.exec("SELECT 1 FROM charges WHERE request_id = ?", req.requestId).toArray();
    if (previous.length > 0) return { ok: true, balance: before.balance, replayed: true, crossedLow: false };

    const month = budgetMonth();
    if (req.keyId !== null && req.keyLimit !== null) {
      const used = this.keyUsed(req.keyId, month);
      if (used + req.credits > req.keyLimit) return { ok: false, reason: "budget_exceeded", balance: before.balance };
    }
    if (before.balance < req.credits) return { ok: false, reason: "insufficient_credits", balance: before.balance };

    const balance = before.balance - req.credits;
    this.sql.exec("UPDATE meter SET balance = ? WHERE id = 1", balance);
    if (req.keyId !== null) {
      this.sql.exec(
        "INSERT INTO key_spend (key_id, month, used) VALUES (?, ?, ?) ON CONFLICT (key_id, month) DO UPDATE SET used = used + excluded.used",
        req.keyId,
        month,
        req.credits,
      );
    }
    this.sql.exec(
      "INSERT INTO charges (request_id, key_id, month, credits, at) VALUES (?, ?, ?, ?, ?)",
      req.requestId,
      req.keyId,
      month,
      req.credits,
      Date.now(),
    );
    const threshold = before.lastTopUp * LOW_CREDIT_RATIO;
    const crossedLow = before.lastTopUp > 0 && before.balance >= threshold && balance < threshold;
    return { ok: true, balance, replayed: false, crossedLow };
  }

  /** Gives back a charge in full; a second refund of the same request is a no-op. */
  refund(requestId: string): RefundOutcome {
    const rows = this.sql
      .exec<{ key_id: string | null; month: string; credits: number; refunded: number }>(
        "SELECT key_id, month, credits, refunded FROM charges WHERE request_id = ?",
        requestId,
      )
      .toArray();
    const charge = rows[0];
    if (!charge) {
      // The call's abort listener may ask before its debit arrives (the two
      // travel separately): a refunded row with no credits makes that late
      // debit a replay that charges nothing, and settles as given up.
      this.sql.exec(
        "INSERT INTO charges (request_id, key_id, month, credits, refunded, at) VALUES (?, NULL, ?, 0, 1, ?)",
        requestId,
        budgetMonth(),
        Date.now(),
      );
      return { refunded: false, credits: 0, balance: this.state().balance };
    }
    if (charge.refunded) return { refunded: false, credits: 0, balance: this.state().balance };
    this.sql.exec("DELETE FROM open_charges WHERE request_id = ?", requestId);
    this.sql.exec("UPDATE charges SET refunded = 1 WHERE request_id = ?", requestId);
    this.sql.exec("UPDATE meter SET balance = balance + ? WHERE id = 1", charge.credits);
    if (charge.key_id !== null) {
      this.sql.exec("UPDATE key_spend SET used = used - ? WHERE key_id = ? AND month = ?", charge.credits, charge.key_id, charge.month);
    }
    return { refunded: true, credits: charge.credits, balance: this.state().balance };
  }

  /**
   * Adds (or, negative, removes) credits. `ref` makes it idempotent (payment
   * ids). A positive grant counts as the last top-up for `credits.low`.
   */
  grant(credits: number, ref?: string): { applied: boolean; balance: number } {
    if (ref !== undefined) {
      const seen = this.sql.exec("SELECT 1 FROM grants WHERE ref = ?", ref).toArray();
      if (seen.length > 0) return { applied: false, balance: this.state().balance };
      this.sql.exec("INSERT INTO grants (ref, credits, at) VALUES (?, ?, ?)", ref, credits, Date.now());
    }
    const balance = Math.max(0, this.state().balance + credits);
    if (credits > 0) this.sql.exec("UPDATE meter SET balance = ?, last_topup = ? WHERE id = 1", balance, credits);
    else this.sql.exec("UPDATE meter SET balance = ? WHERE id = 1", balance);
    return { applied: true, balance };
  }

  /** This month's spend of each given key (0 when it has spent nothing). */
  keySpend(keyIds: string[]): Record<string, number> {
    const month = budgetMonth();
    const out: Record<string, number> = {};
    for (const id of keyIds) out[id] = this.keyUsed(id, month);
    return out;
  }

  private keyUsed(keyId: string, month: string): number {
    const rows = this.sql.exec<{ used: number }>("SELECT used FROM key_spend WHERE key_id = ? AND month = ?", keyId, month).toArray();
    return rows[0]?.used ?? 0;
  }
}
