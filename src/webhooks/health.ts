import type { Env } from "../env";
import { ownerEmails, sendMail } from "../mail/mailer";
import { webhookDisabledMail } from "../mail/templates";
import { AUTO_DISABLE_AFTER } from "./backoff";
import type { SendTarget } from "./store";

// Endpoint health: consecutive failed attempts, counted in D1 by single
// atomic statements, and the auto-disable at AUTO_DISABLE_AFTER with an
// e-mail to the account's owners through the mailer (docs/reference/webhooks.md, Health).

export const DISABLED_BY_FAILURES = "consecutive_failures";

/** Records one attempt's result against its endpoint. Never throws: health is bookkeeping, not delivery. */
export async function recordAttemptResult(env: Env, target: SendTarget, ok: boolean): Promise<void> {
  try {
    if (ok) {
      // The common path writes nothing: the count we loaded was already zero.
      if (target.consecutiveFailures > 0) {
        await env.DB.prepare("UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = ? AND consecutive_failures > 0").bind(target.id).run();
      }
      return;
    }
    await recordFailure(env, target);
  } catch (err) {
    console.error("webhooks: could not record endpoint health", target.id, err);
  }
}

async function recordFailure(env: Env, target: SendTarget): Promise<void> {
  const stamp = new Date().toISOString();
  // SET expressions see the old row, so the CASEs fire exactly on the failure
  // that crosses the threshold of an endpoint that is still active.
  const row = await env.DB.prepare(
    `UPDATE webhook_endpoints
        SET consecutive_failures = consecutive_failures + 1,
            disabled_reason = CASE WHEN active = 1 AND consecutive_failures + 1 >= ?2 THEN ?3 ELSE disabled_reason END,
            disabled_at     = CASE WHEN active = 1 AND consecutive_failures + 1 >= ?2 THEN ?4 ELSE disabled_at END,
            updated_at      = CASE WHEN active = 1 AND consecutive_failures + 1 >= ?2 THEN ?4 ELSE updated_at END,
            active          = CASE WHEN active = 1 AND consecutive_failures + 1 >= ?2 THEN 0 ELSE active END
      WHERE id = ?1
      RETURNING consecutive_failures AS failures, disabled_at AS disabledAt, disabled_reason AS reason, url`,
  )
    .bind(target.id, AUTO_DISABLE_AFTER, DISABLED_BY_FAILURES, stamp)
    .first<{ failures: number; disabledAt: string | null; reason: string | null; url: string }>();
  if (row && row.reason === DISABLED_BY_FAILURES && row.disabledAt === stamp) {
    await alertOwners(env, target, row.url, row.failures);
  }
}

async function alertOwners(env: Env, target: SendTarget, url: string, failures: number): Promise<void> {
  console.warn("webhooks: endpoint disabled after consecutive failures", { endpoint: target.id, account: target.accountId, failures });
  const owners = await ownerEmails(env, target.accountId);
  await sendMail(
    env,
    owners.map((to) => webhookDisabledMail(to, target.accountId, target.id, url, failures)),
  );
}
