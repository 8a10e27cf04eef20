import type { Env } from "../env";
import { SEND_TIMEOUT_MS } from "./backoff";
import { dohResolver, memoResolver } from "../net/dns";
import { recordAttemptResult } from "./health";
import { sendAttempt, type AttemptOutcome } from "./send";
import type { Resolver } from "../net/ssrf";
import { policyFromEnv } from "../net/ssrf";
import type { SendTarget } from "./store";
import { settingsOf } from "../settings";

// One attempt as both senders (queue consumer, endpoint alarm) make it: the
// env's SSRF policy and timeout, the global fetch, then the health count.

/** WEBHOOK_SEND_TIMEOUT_MS lets tests shorten the 10 s send timeout; production leaves it unset. */
export function sendTimeoutMs(env: Env): number {
  return Math.min(settingsOf(env).WEBHOOK_SEND_TIMEOUT_MS ?? SEND_TIMEOUT_MS, SEND_TIMEOUT_MS);
}

/** A resolver for one batch or alarm run (see memoResolver). */
export function runResolver(): Resolver {
  return memoResolver(dohResolver());
}

export interface DeliveryBody {
  event: string;
  event_id: string;
  body: string;
}

export async function attemptDelivery(env: Env, target: SendTarget, d: DeliveryBody, resolve: Resolver): Promise<AttemptOutcome> {
  const outcome = await sendAttempt(
    { url: target.url, secrets: target.secrets, event: d.event, eventId: d.event_id, body: d.body },
    // Looked up per call, so a test's fetch mock applies.
    { fetch: (input, init) => fetch(input, init), resolve, policy: policyFromEnv(env), timeoutMs: sendTimeoutMs(env) },
  );
  await recordAttemptResult(env, target, outcome.ok);
  return outcome;
}
