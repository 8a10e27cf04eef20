import type { Env } from "../env";
import { ApiError } from "../errors";
import { constantTimeEqual, toBase64Url } from "../secrets/encoding";
import { keyFor } from "../secrets/keys";

// CSRF protection of cookie-authenticated requests (issue #17): a request
// that changes state must carry the session's token in X-CSRF-Token (an HMAC
// of the session id, so nothing extra is stored) and an Origin equal to the
// Worker's own. A cross-site page can make the browser send the cookie, but
// can neither read the token nor forge the Origin header. Bearer and
// X-API-Key callers are not affected: a browser never adds those by itself.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export async function csrfTokenFor(env: Env, sessionId: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyFor(env, "session-csrf"), new TextEncoder().encode(sessionId));
  return toBase64Url(new Uint8Array(mac));
}

/** True when the Origin header is absent or names this request's own origin. */
export function originAllowed(req: Request, required: boolean): boolean {
  const origin = req.headers.get("Origin");
  if (origin === null) return !required;
  return origin === new URL(req.url).origin;
}

/** Throws 403 csrf_failed when a state-changing cookie request lacks the token or comes from another origin. */
export async function checkCsrf(env: Env, req: Request, sessionId: string): Promise<void> {
  if (SAFE_METHODS.has(req.method)) return;
  if (!originAllowed(req, true)) {
    throw new ApiError("csrf_failed", "A request authenticated by the session cookie must come from this origin (Origin header).");
  }
  const sent = req.headers.get("X-CSRF-Token") ?? "";
  if (!constantTimeEqual(sent, await csrfTokenFor(env, sessionId))) {
    throw new ApiError("csrf_failed", "A request authenticated by the session cookie must carry X-CSRF-Token (from GET /api/v1/auth/session).");
  }
}
