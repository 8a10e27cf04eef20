import { env } from "cloudflare:workers";
import { sign } from "hono/jwt";
import { describe, expect, it } from "vitest";
import { createAccount, createKey, uniqueEmail } from "../../support/accounts";
import { call, postJson, problem, withKey, withToken } from "../../support/http";
import { mailedInviteToken } from "../../accounts/support";
import { consoleHeaders, cookieOf, ORIGIN, ownerEmail, type SessionBody, signIn } from "./support";

// Issue #17, the session: the dashboard JWT in a __Host- cookie, accepted
// wherever a JWT is, guarded against CSRF on every change, renewed while
// used, and revoked server-side on sign-out.

const newKey = (headers: Record<string, string>) =>
  call("/api/v1/keys", { method: "POST", body: JSON.stringify({ name: "from the console" }), headers: { "Content-Type": "application/json", ...headers } });

async function session() {
  const account = await createAccount();
  return { account, s: await signIn(await ownerEmail(account.accountId)) };
}

describe("CSRF on cookie-authenticated changes", () => {
  it("creates a key with the cookie, the CSRF token and this origin", async () => {
    const { s } = await session();
    const res = await newKey(consoleHeaders(s));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { api_key: string }).api_key).toMatch(/^dt_live_/);
  });

  it.each([
    ["without the token", (h: Record<string, string>) => ({ Cookie: h.Cookie, Origin: ORIGIN })],
    ["with a wrong token", (h: Record<string, string>) => ({ ...h, "X-CSRF-Token": "A".repeat(43) })],
    ["with another session's shape of token", (h: Record<string, string>) => ({ ...h, "X-CSRF-Token": `${h["X-CSRF-Token"].slice(0, -1)}x` })],
    ["from another origin", (h: Record<string, string>) => ({ ...h, Origin: "https://evil.example" })],
    ["without an Origin header", (h: Record<string, string>) => ({ Cookie: h.Cookie, "X-CSRF-Token": h["X-CSRF-Token"] })],
  ])("refuses a change %s (403 csrf_failed) and changes nothing", async (_label, headersOf) => {
    const { account, s } = await session();
    const res = await newKey(headersOf(consoleHeaders(s)));
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("csrf_failed");
    const keys = (await (await call("/api/v1/keys", { headers: withToken(account.token) })).json()) as { data: unknown[] };
    expect(keys.data).toEqual([]);
  });

  it("lets reads through with the cookie alone", async () => {
    const { s } = await session();
    expect((await call("/api/v1/keys", { headers: { Cookie: s.cookie } })).status).toBe(200);
  });

  it("applies to tool calls made with the cookie too", async () => {
    const { s } = await session();
    const res = await call("/api/v1/pdf/merge/merge", { method: "POST", body: new FormData(), headers: { Cookie: s.cookie } });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("csrf_failed");
  });

  it("does not concern Bearer or X-API-Key callers, which a browser never adds by itself", async () => {
    const { account, s } = await session();
    // The session's own JWT as a Bearer token: no CSRF token needed.
    expect((await newKey({ Authorization: `Bearer ${s.jwt}`, Origin: "https://elsewhere.example" })).status).toBe(201);
    expect((await newKey(withToken(account.token))).status).toBe(201);
    const key = await createKey(account.token, { name: "reader", permissions: ["read"] });
    // A header credential wins over a cookie sent along.
    const res = await call("/api/v1/account", { headers: { ...withKey(key.api_key), Cookie: "__Host-session=garbage" } });
    expect(res.status).toBe(200);
  });
});

describe("GET /api/v1/auth/session", () => {
  it("is 401 without a session, and with a forged cookie (which it clears)", async () => {
    const none = await call("/api/v1/auth/session");
    expect(none.status).toBe(401);
    expect((await problem(none)).code).toBe("unauthorized");
    const forged = await call("/api/v1/auth/session", { headers: { Cookie: "__Host-session=eyJhbGciOiJIUzI1NiJ9.e30.x" } });
    expect(forged.status).toBe(401);
    expect((await problem(forged)).code).toBe("invalid_credentials");
    expect(forged.headers.get("Set-Cookie")).toMatch(/^__Host-session=; .*Max-Age=0$/);
  });

  it("renews the cookie (sliding), never past the 12-hour absolute expiry", async () => {
    const { s } = await session();
    const sid = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ? ORDER BY created_at DESC").bind(s.body.user.id).first<{ id: string }>();
    // Pretend the session was last renewed 20 minutes ago: renewal pushes its idle expiry 30 minutes from now.
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() + 10 * 60_000).toISOString(), sid?.id)
      .run();
    const res = await call("/api/v1/auth/session", { headers: { Cookie: s.cookie } });
    expect(res.status).toBe(200);
    const renewed = cookieOf(res.headers.get("Set-Cookie"));
    const body = (await res.json()) as SessionBody;
    expect(Date.parse(body.expires_at as string) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect((await call("/api/v1/auth/session", { headers: { Cookie: renewed } })).status).toBe(200);

    // Close to the absolute expiry, the renewal stops there.
    const cap = new Date(Date.now() + 5 * 60_000).toISOString();
    await env.DB.prepare("UPDATE sessions SET absolute_expires_at = ? WHERE id = ?").bind(cap, sid?.id).run();
    const capped = (await (await call("/api/v1/auth/session", { headers: { Cookie: renewed } })).json()) as SessionBody;
    expect(capped.expires_at).toBe(new Date(Math.floor(Date.parse(cap) / 1000) * 1000).toISOString());

    // Past it, the session is over for every credential carrying it.
    await env.DB.prepare("UPDATE sessions SET absolute_expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), sid?.id)
      .run();
    const over = await call("/api/v1/auth/session", { headers: { Cookie: renewed } });
    expect(over.status).toBe(401);
    expect((await problem(over)).code).toBe("invalid_credentials");
  });

  it("renews the cookie on any request once it is 5 minutes old, and not before", async () => {
    const { s } = await session();
    // A fresh cookie: ordinary requests leave it alone (no D1 write per call).
    const fresh = await call("/api/v1/account", { headers: { Cookie: s.cookie } });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("Set-Cookie")).toBeNull();

    // The same session's JWT as if issued 6 minutes ago.
    const sid = (await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?").bind(s.body.user.id).first<{ id: string }>())?.id as string;
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: s.body.user.id, org: s.body.account.id, sid, iat: now - 360, exp: now + 1440 };
    // Dashboard JWTs are HS256 under JWT_SECRET itself (docs/reference/accounts-and-keys.md, Credentials).
    const old = await sign(claims, env.JWT_SECRET as string, "HS256");
    const res = await call("/api/v1/account", { headers: { Cookie: `__Host-session=${old}` } });
    expect(res.status).toBe(200);
    const renewed = cookieOf(res.headers.get("Set-Cookie"));
    expect(res.headers.get("Set-Cookie")).toMatch(/Max-Age=1800$/);
    expect(renewed).not.toBe(`__Host-session=${old}`);
    const row = await env.DB.prepare("SELECT expires_at FROM sessions WHERE id = ?").bind(sid).first<{ expires_at: string }>();
    expect(Date.parse(row?.expires_at as string) - Date.now()).toBeGreaterThan(29 * 60_000);
  });

  it("answers a Bearer JWT of the operator API, which has no session, with null CSRF token and expiry", async () => {
    const account = await createAccount();
    const res = await call("/api/v1/auth/session", { headers: withToken(account.token) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user: { id: account.ownerId }, csrf_token: null, expires_at: null });
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });
});

describe("DELETE /api/v1/auth/session (sign-out)", () => {
  it("needs the CSRF token like any change", async () => {
    const { s } = await session();
    const res = await call("/api/v1/auth/session", { method: "DELETE", headers: { Cookie: s.cookie, Origin: ORIGIN } });
    expect(res.status).toBe(403);
    expect((await problem(res)).code).toBe("csrf_failed");
    expect((await call("/api/v1/auth/session", { headers: { Cookie: s.cookie } })).status).toBe(200);
  });

  it("revokes the session server-side: the old cookie and its JWT as Bearer are 401 afterwards", async () => {
    const { s } = await session();
    const other = await signIn(s.body.user.email);
    const out = await call("/api/v1/auth/session", { method: "DELETE", headers: consoleHeaders(s) });
    expect(out.status).toBe(204);
    expect(out.headers.get("Set-Cookie")).toMatch(/^__Host-session=; HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=0$/);

    for (const headers of [{ Cookie: s.cookie }, withToken(s.jwt)]) {
      const res = await call("/api/v1/account", { headers });
      expect(res.status).toBe(401);
      expect((await problem(res)).code).toBe("invalid_credentials");
    }
    // Only that session ends: the same user's other sign-in goes on.
    expect((await call("/api/v1/auth/session", { headers: { Cookie: other.cookie } })).status).toBe(200);
  });

  it("ends a removed member's session at once", async () => {
    const owner = await createAccount();
    const email = uniqueEmail("member");
    expect((await postJson("/api/v1/team/invitations", { email, role: "member" }, withToken(owner.token))).status).toBe(201);
    // The token reaches the invitee by mail only.
    expect((await postJson("/api/v1/team/invitations/accept", { invite_token: await mailedInviteToken(email) })).status).toBe(200);
    const member = await signIn(email);
    expect(member.body).toMatchObject({ user: { email, role: "member" }, account: { id: owner.accountId } });
    expect((await call(`/api/v1/team/members/${member.body.user.id}`, { method: "DELETE", headers: withToken(owner.token) })).status).toBe(204);
    const res = await call("/api/v1/auth/session", { headers: { Cookie: member.cookie } });
    expect(res.status).toBe(401);
  });
});
