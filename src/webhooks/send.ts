import { isSuccess } from "./backoff";
import { signatureHeader } from "./signing";
import { checkTarget, TargetRefused, type Resolver, type TargetPolicy } from "../net/ssrf";

// One HTTP attempt of one delivery. Everything it touches is injected (fetch,
// resolver, clock), so tests drive it without a network or real waiting.

export interface AttemptRequest {
  url: string;
  /** Current secret first; during a rotation window the previous one too. */
  secrets: readonly string[];
  event: string;
  /** Webhook-Id: the event_id, the same on every retry and redelivery. */
  eventId: string;
  /** The exact payload bytes; signed and sent unchanged. */
  body: string;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  /** Why it failed; null on success. Short, safe to show in the delivery log. */
  error: string | null;
  durationMs: number;
}

export interface SendDeps {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  resolve: Resolver;
  policy: TargetPolicy;
  timeoutMs: number;
  now?: () => number;
}

export const USER_AGENT = "docapi-webhooks/1";

export async function sendAttempt(req: AttemptRequest, deps: SendDeps): Promise<AttemptOutcome> {
  const now = deps.now ?? Date.now;
  const started = now();
  const done = (statusCode: number | null, error: string | null): AttemptOutcome => ({
    ok: error === null,
    statusCode,
    error,
    durationMs: Math.max(0, now() - started),
  });

  try {
    await checkTarget(req.url, deps.policy, deps.resolve);
  } catch (err) {
    if (err instanceof TargetRefused) return done(null, `refused: ${err.message}`);
    throw err;
  }

  // Webhook-Timestamp is the send time, not the event time: receivers reject
  // timestamps older than 5 minutes, and retries run for up to 18 hours.
  const timestamp = Math.floor(started / 1000);
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
    "Webhook-Id": req.eventId,
    "Webhook-Event": req.event,
    "Webhook-Timestamp": String(timestamp),
    "Webhook-Signature": await signatureHeader(req.secrets, req.eventId, timestamp, req.body),
  };

  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error("timeout")), deps.timeoutMs);
  try {
    // redirect "manual": a 3xx is answered to us, never followed (a redirect
    // could point at an address the guard above would refuse).
    const res = await deps.fetch(req.url, { method: "POST", headers, body: req.body, redirect: "manual", signal: abort.signal });
    await res.body?.cancel().catch(() => undefined);
    if (isSuccess(res.status)) return done(res.status, null);
    if (res.status >= 300 && res.status < 400) return done(res.status, `redirect refused (HTTP ${res.status})`);
    return done(res.status, `HTTP ${res.status}`);
  } catch (err) {
    if (abort.signal.aborted) return done(null, `timeout: no response within ${deps.timeoutMs} ms`);
    return done(null, `network error: ${String((err as Error)?.message ?? err).slice(0, 200)}`);
  } finally {
    clearTimeout(timer);
  }
}
