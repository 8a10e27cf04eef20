import { waitUntil } from "cloudflare:workers";
import type { Env } from "../env";

// "Last used" of an API key (console key list). Writing D1 on every keyed
// request would double the database work of the hot path, so the time is
// written at most once per key per LAST_USE_INTERVAL_MS: skipped when the
// stored value (read anyway by identify) is recent, or when this isolate
// wrote it recently (a burst of requests all read the same stale value).
// The write runs after the answer (waitUntil) and its failure is only
// logged: a request never fails or waits for it.

export const LAST_USE_INTERVAL_MS = 5 * 60_000;

/** Keys this isolate wrote recently → when; bounded so a key-spraying caller cannot grow it. */
const recentWrites = new Map<string, number>();
const MAX_REMEMBERED = 1_000;

/** Pure: whether a use at `now` should be written, given the stored and the remembered time. */
export function lastUseIsStale(stored: string | null, rememberedMs: number | undefined, now: number): boolean {
  const storedMs = stored === null ? Number.NEGATIVE_INFINITY : Date.parse(stored);
  const newest = Math.max(Number.isNaN(storedMs) ? Number.NEGATIVE_INFINITY : storedMs, rememberedMs ?? Number.NEGATIVE_INFINITY);
  return now - newest >= LAST_USE_INTERVAL_MS;
}

/** Notes that key `keyId` (whose stored last use is `stored`) authenticated a request now. */
export function recordKeyUse(env: Env, keyId: string, stored: string | null, now: number = Date.now()): void {
  if (!lastUseIsStale(stored, recentWrites.get(keyId), now)) return;
  if (recentWrites.size >= MAX_REMEMBERED) recentWrites.clear();
  recentWrites.set(keyId, now);
  const at = new Date(now).toISOString();
  const threshold = new Date(now - LAST_USE_INTERVAL_MS).toISOString();
  // Conditional, so concurrent isolates racing on one key still write at most once per interval.
  const write = env.DB.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)")
    .bind(at, keyId, threshold)
    .run()
    .then(
      () => undefined,
      (err: unknown) => {
        recentWrites.delete(keyId);
        console.error("auth: could not record an API key's last use", err);
      },
    );
  try {
    waitUntil(write);
  } catch {
    // Outside a request (a script or test calling identify directly) there is nothing to extend; the write still runs.
  }
}
