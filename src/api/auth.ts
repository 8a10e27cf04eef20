import { z } from "zod";
import { clientNetwork } from "../auth/client-network";
import { clearedSessionCookie, sessionCookie } from "../auth/cookie";
import { csrfTokenFor, originAllowed } from "../auth/csrf";
import { issueMagicLink, redeemMagicLink } from "../auth/magic-link";
import { createSession, type IssuedSession, renewSession, revokeSession } from "../auth/sessions";
import type { Env } from "../env";
import { ApiError } from "../errors";
import type { AppContext } from "../http/context";
import { defineRoute } from "../http/route";
import { linkOrigin } from "../mail/link-origin";
import { sendMail } from "../mail/mailer";
import { accountView } from "./accounts";

// Console sign-in (issue #17): e-mailed single-use links, then a session in a
// `__Host-` cookie (auth/cookie.ts, auth/sessions.ts). Policy figures live in
// auth/session-policy.ts; the CSRF rules in auth/csrf.ts.

const tags = ["auth"];
const ROLES = ["owner", "admin", "member"] as const;

const sessionView = z.object({
  user: z.object({ id: z.string(), email: z.string(), role: z.enum(ROLES) }),
  account: accountView.pick({ id: true, name: true, plan: true }),
  csrf_token: z
    .string()
    .nullable()
    .describe("Send as X-CSRF-Token on every POST, PUT, PATCH and DELETE authenticated by the cookie. Null for a bearer token without a session."),
  expires_at: z.string().nullable().describe("When the session ends unless used again (ISO 8601). Null for a bearer token without a session."),
});

const SET_COOKIE = {
  "Set-Cookie": {
    description: "`__Host-session=<JWT>; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=<seconds>`",
    schema: { type: "string" },
  },
};

async function sessionBody(env: Env, userId: string, session: { id: string; expiresAt: number } | null) {
  const row = await env.DB.prepare(
    `SELECT u.id, u.email, u.role, a.id AS accountId, a.name, a.plan
       FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.id = ?1 AND u.removed_at IS NULL`,
  )
    .bind(userId)
    .first<{ id: string; email: string; role: (typeof ROLES)[number]; accountId: string; name: string; plan: string }>();
  if (!row) throw new ApiError("invalid_credentials", "The user of this session no longer exists.");
  return sessionView.parse({
    user: { id: row.id, email: row.email, role: row.role },
    account: { id: row.accountId, name: row.name, plan: row.plan },
    csrf_token: session ? await csrfTokenFor(env, session.id) : null,
    expires_at: session ? new Date(session.expiresAt * 1000).toISOString() : null,
  });
}

function setSessionCookie(c: AppContext, issued: IssuedSession): void {
  c.header("Set-Cookie", sessionCookie(issued.token, issued.expiresAt - Math.floor(Date.now() / 1000)));
  // A response carrying a session must never be stored by a shared cache.
  c.header("Cache-Control", "no-store");
}

const requestLink = defineRoute({
  id: "requestMagicLink",
  method: "post",
  path: "/api/v1/auth/magic-link",
  tags,
  summary: "E-mail a sign-in link",
  description:
    "Always 202, whether or not the address has a user, so the answer reveals nothing. The link signs in within 15 minutes, once. " +
    "With SIGNUP=open an unknown address gets a link that creates a free account. At most 5 links per address per 15 minutes; " +
    "too many requests from one IP are 429.",
  auth: "public",
  body: z.object({ email: z.string().trim().toLowerCase().max(254).pipe(z.email()) }),
  problems: ["rate_limited"],
  responses: { 202: { description: "Accepted", schema: z.object({ success: z.literal(true) }) } },
  handler: async (c, { body: { email } }) => {
    const ip = c.req.header("CF-Connecting-IP") ?? null;
    // Counted per network, like anonymous tool calls: one IPv6 /64 is one client (auth/client-network.ts).
    const { success } = await c.env.ANON_LIMITER.limit({ key: `magic-link:${clientNetwork(ip ?? "unknown")}` });
    if (!success) throw new ApiError("rate_limited", "Too many sign-in requests from this address.", { headers: { "Retry-After": "60" } });
    // Everything that depends on the address (lookup, quota, writing and sending the mail) runs after the
    // answer, so neither the answer nor its timing tells whether the address has an account.
    const work = sendLink(c.env, email, ip, linkOrigin(c.env, c.req.url));
    const defer = waitUntilOf(c);
    if (defer) defer(work);
    else await work;
    return c.json({ success: true as const }, 202);
  },
});

async function sendLink(env: Env, email: string, ip: string | null, origin: string): Promise<void> {
  try {
    const mail = await issueMagicLink(env, email, ip, origin);
    if (mail) await sendMail(env, [mail]);
  } catch (err) {
    console.error("auth: could not issue a sign-in link", err);
  }
}

/** The execution context's waitUntil, when the request has one (tests may call the app without). */
function waitUntilOf(c: AppContext): ((work: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (work) => ctx.waitUntil(work);
  } catch {
    return undefined;
  }
}

const startSession = defineRoute({
  id: "createSession",
  method: "post",
  path: "/api/v1/auth/session",
  tags,
  summary: "Sign in with a link's token",
  description:
    "Spends the token of a sign-in link and starts a console session: the answer sets the `__Host-session` cookie and gives the CSRF token " +
    "to send with state-changing requests. A request with an Origin header from another site is refused (403 csrf_failed).",
  auth: "public",
  body: z.object({ token: z.string().min(1).max(512).describe("The `token` of the link's fragment (#token=...).") }),
  problems: ["magic_link_invalid", "magic_link_expired", "magic_link_used", "csrf_failed"],
  responses: { 200: { description: "Signed in", schema: sessionView, headers: SET_COOKIE } },
  handler: async (c, { body: { token } }) => {
    // Checked before the token is spent: a cross-site form cannot burn a link or sign the browser in as someone else.
    if (!originAllowed(c.req.raw, false)) throw new ApiError("csrf_failed", "Sign-in must come from this origin.");
    const user = await redeemMagicLink(c.env, token);
    const issued = await createSession(c.env, user.id, user.accountId, c.req.raw);
    const body = await sessionBody(c.env, user.id, issued);
    setSessionCookie(c, issued);
    return c.json(body);
  },
});

const getSession = defineRoute({
  id: "getSession",
  method: "get",
  path: "/api/v1/auth/session",
  tags,
  summary: "The signed-in user, account and CSRF token",
  description: "With the session cookie, also renews it (30 minutes idle, 12 hours at most since sign-in). A bearer JWT works too.",
  auth: "jwt",
  responses: { 200: { description: "The session", schema: sessionView, headers: SET_COOKIE } },
  handler: async (c, { caller }) => {
    const session = caller.session;
    if (session?.via !== "cookie") return c.json(await sessionBody(c.env, caller.userId, session ?? null));
    const renewed = await renewSession(c.env, session.id, caller.userId, caller.accountId);
    if (!renewed) throw new ApiError("invalid_credentials", "This session has ended; sign in again.");
    setSessionCookie(c, renewed);
    return c.json(await sessionBody(c.env, caller.userId, renewed));
  },
});

const endSession = defineRoute({
  id: "deleteSession",
  method: "delete",
  path: "/api/v1/auth/session",
  tags,
  summary: "Sign out",
  description:
    "Revokes the session server-side (its JWT is refused from then on, cookie or bearer) and clears the cookie. " +
    "With the cookie it needs X-CSRF-Token like any state-changing request.",
  auth: "jwt",
  responses: { 204: { description: "Signed out", headers: SET_COOKIE } },
  handler: async (c, { caller }) => {
    // A JWT from the operator API has no session: it simply expires.
    if (caller.session) await revokeSession(c.env, caller.session.id);
    c.header("Set-Cookie", clearedSessionCookie());
    return c.body(null, 204);
  },
});

export const AUTH_ROUTES = [requestLink, startSession, getSession, endSession];
