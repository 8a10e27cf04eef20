import type { Env } from "../env";
import { database, schema } from "../db/client";

/** The AccountMeter stub of an account. */
export function meterFor(env: Env, accountId: string) {
  return env.METER.get(env.METER.idFromName(accountId));
}

export interface LedgerEntry {
  accountId: string;
  kind: "debit" | "refund" | "grant";
  credits: number;
  balanceAfter: number;
  requestId?: string;
  operation?: string;
  keyId?: string | null;
  userId?: string | null;
  reason?: string;
}

/**
 * Mirrors a meter decision into the D1 ledger for reporting. The meter has
 * already decided; a duplicate (same request and kind) is ignored.
 */
export async function recordLedger(env: Env, entry: LedgerEntry): Promise<void> {
  await database(env.DB)
    .insert(schema.creditLedger)
    .values({
      accountId: entry.accountId,
      kind: entry.kind,
      credits: entry.credits,
      balanceAfter: entry.balanceAfter,
      requestId: entry.requestId ?? null,
      operation: entry.operation ?? null,
      keyId: entry.keyId ?? null,
      userId: entry.userId ?? null,
      reason: entry.reason ?? null,
    })
    .onConflictDoNothing();
}
