// The retry policy of a delivery, as pure functions of the attempt number and
// the clock (docs/reference/webhooks.md, Delivery, retries and at-least-once). The endpoint's Durable Object
// calls these; nothing else decides when a delivery is retried.
//
//   attempt 1 fails -> attempt 2 after 1 min
//   attempt 2 fails -> attempt 3 after 5 min
//   attempt 3 fails -> attempt 4 after 30 min
//   attempt 4 fails -> attempt 5 after 2 h
//   attempt 5 fails -> attempt 6 after 5 h
//   attempt 6 fails -> attempt 7 after 12 h
//   attempt 7 fails -> dead (manual redelivery starts a fresh schedule)

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 12 * HOUR];

/** At most 7 attempts: the first plus one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The send timeout; a 2xx must arrive within it (docs/reference/webhooks.md). */
export const SEND_TIMEOUT_MS = 10_000;

/**
 * How long the last attempt may stay without a reported outcome before the
 * Durable Object gives up on it (its sender crashed). Longer than the send
 * timeout, so a slow but live attempt always reports first.
 */
export const LAST_ATTEMPT_LEASE_MS = 1 * MINUTE;

/** 15 consecutive failed attempts disable the endpoint (docs/reference/webhooks.md, Health). */
export const AUTO_DISABLE_AFTER = 15;

/** Success is any 2xx (docs/reference/webhooks.md). Redirects are not followed, so a 3xx fails. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

/**
 * When the Durable Object must look at a delivery again after starting
 * `attempt` at `startedAt`: the next attempt's time if one remains, else the
 * lease of the last attempt. Written before the send, so a sender that dies
 * mid-attempt is covered by the alarm instead of losing the delivery.
 */
export function recheckAt(attempt: number, startedAt: number): number {
  if (attempt < 1) throw new RangeError("attempts are numbered from 1");
  return attempt < MAX_ATTEMPTS ? startedAt + RETRY_DELAYS_MS[attempt - 1] : startedAt + LAST_ATTEMPT_LEASE_MS;
}

export type AfterFailure = { kind: "retry"; at: number } | { kind: "dead" };

/** What follows a failed `attempt` that started at `startedAt`. */
export function afterFailure(attempt: number, startedAt: number): AfterFailure {
  return attempt >= MAX_ATTEMPTS ? { kind: "dead" } : { kind: "retry", at: recheckAt(attempt, startedAt) };
}
