import { meterFor, recordLedger } from "../../billing/meter";
import type { Env } from "../../env";

/** Adds (or with a negative amount removes) credits and records the grant; `ref` makes it idempotent. */
export async function grant(env: Env, accountId: string, credits: number, reason: string, ref?: string): Promise<void> {
  const result = await meterFor(env, accountId).grant(credits, ref);
  if (!result.applied) return;
  await recordLedger(env, { accountId, kind: "grant", credits, balanceAfter: result.balance, reason, requestId: ref });
}
