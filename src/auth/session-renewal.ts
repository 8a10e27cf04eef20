import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context";
import { clearedSessionCookie, readSessionCookie, sessionCookie } from "./cookie";
import { SESSION_POLICY } from "./session-policy";
import { renewSession } from "./sessions";

// Sliding renewal of the console cookie on every request it authenticates,
// at most once per `renewAfterSeconds` (one D1 write then, none otherwise),
// and a cleared cookie when a request's only credential was a dead cookie,
// so the browser stops sending it.

export const sessionRenewal: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const p = c.get("principal");
  if (p?.kind === "user" && p.session?.via === "cookie") {
    // Sign-in, GET /api/v1/auth/session and sign-out set the cookie themselves.
    if (c.res.headers.has("Set-Cookie") || c.res.status === 401) return;
    const now = Math.floor(Date.now() / 1000);
    if (now - p.session.issuedAt < SESSION_POLICY.renewAfterSeconds) return;
    try {
      const renewed = await renewSession(c.env, p.session.id, p.userId, p.accountId);
      if (renewed) c.res.headers.append("Set-Cookie", sessionCookie(renewed.token, renewed.expiresAt - now));
    } catch (err) {
      // Renewal is a convenience: the answer already made must not turn into an error.
      console.error("auth: session renewal failed", err);
    }
    return;
  }
  const onlyCookie = !c.req.header("Authorization") && !c.req.header("X-API-Key") && readSessionCookie(c.req.raw) !== null;
  if (c.res.status === 401 && onlyCookie) c.res.headers.append("Set-Cookie", clearedSessionCookie());
};
