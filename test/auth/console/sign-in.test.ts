import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app";
import type { Env } from "../../../src/env";
import { createAccount, uniqueEmail } from "../../support/accounts";
import { call, freshIp, postJson, problem, withToken } from "../../support/http";
import { mailedInviteToken } from "../../accounts/support";
import { cookieOf, latestToken, messagesTo, ORIGIN, ownerEmail, redeem, requestLink, signIn } from "./support";

// Issue #17, sign-in: e-mailed single-use links (no enumeration, hashed,
// 15 minutes, rate limited) redeemed for a session cookie.

const hashOf = async (token: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)))].map((b) => b.toString(16).padStart(2, "0")).join("");

describe("POST /api/v1/auth/magic-link", () => {
  it("answers 202 alike for a known and an unknown address; only the known one gets a link", async () => {
    const { accountId } = await createAccount();
    const known = await ownerEmail(accountId);
    const unknown = uniqueEmail("nobody");
    const a = await requestLink(known);
    const b = await requestLink(unknown);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(await a.json()).toEqual({ success: true });
    expect(await b.json()).toEqual({ success: true });

    const mails = await messagesTo(known);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ template: "magic_link", subject: "Your sign-in link" });
    expect(mails[0].links).toHaveLength(1);
    const link = new URL(mails[0].links[0]);
    expect(`${link.origin}${link.pathname}`).toBe(`${ORIGIN}/console/sign-in`);
    // The token rides in the fragment (never sent to a server) and is 32 random bytes, base64url.
    expect(link.search).toBe("");
    expect(link.hash).toMatch(/^#token=[A-Za-z0-9_-]{43}$/);
    expect(await messagesTo(unknown)).toEqual([]);
  });

  it("with CONSOLE_ORIGIN set, links lead there whatever origin the request came to", async () => {
    const { accountId } = await createAccount();
    const email = await ownerEmail(accountId);
    expect((await requestLink(email, freshIp(), { CONSOLE_ORIGIN: "https://console.example.com/" })).status).toBe(202);
    const [mail] = await messagesTo(email);
    const link = new URL(mail.links[0]);
    expect(`${link.origin}${link.pathname}`).toBe("https://console.example.com/console/sign-in");
  });

  it("stores only the token's SHA-256, expiring in 15 minutes", async () => {
    const { accountId } = await createAccount();
    const email = await ownerEmail(accountId);
    await requestLink(email);
    const token = await latestToken(email);
    const rows = await env.DB.prepare("SELECT token_hash, created_at, expires_at, used_at FROM magic_links WHERE email = ?").bind(email).all<{
      token_hash: string;
      created_at: string;
      expires_at: string;
      used_at: string | null;
    }>();
    expect(rows.results).toHaveLength(1);
    const row = rows.results[0];
    expect(row.token_hash).toBe(await hashOf(token));
    expect(JSON.stringify(rows.results)).not.toContain(token);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(15 * 60 * 1000);
  });

  it("normalises the address and refuses one that is not an e-mail (422)", async () => {
    const { accountId } = await createAccount();
    const email = await ownerEmail(accountId);
    expect((await requestLink(`  ${email.toUpperCase()} `)).status).toBe(202);
    expect(await messagesTo(email)).toHaveLength(1);
    const bad = await requestLink("not-an-address");
    expect(bad.status).toBe(422);
    expect((await problem(bad)).code).toBe("validation_failed");
  });

  it("sends at most 5 links per address in 15 minutes, and still answers 202", async () => {
    const { accountId } = await createAccount();
    const email = await ownerEmail(accountId);
    for (let i = 0; i < 7; i++) expect((await requestLink(email)).status).toBe(202);
    expect(await messagesTo(email)).toHaveLength(5);
    // Once the window has passed (the rows aged in D1), links flow again.
    await env.DB.prepare("UPDATE magic_links SET created_at = '2020-01-01T00:00:00.000Z' WHERE email = ?").bind(email).run();
    expect((await requestLink(email)).status).toBe(202);
    expect(await messagesTo(email)).toHaveLength(6);
  });

  it("answers 429 rate_limited to one IP that asks too often", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await requestLink(uniqueEmail("flood"), ip)).status);
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(statuses).toContain(429);
    const res = await requestLink(uniqueEmail("flood"), ip);
    expect(res.status).toBe(429);
    expect((await problem(res)).code).toBe("rate_limited");
    expect(res.headers.get("Retry-After")).toBe("60");
    // Another IP is not affected.
    expect((await requestLink(uniqueEmail("flood"), freshIp())).status).toBe(202);
  });
});

describe("POST /api/v1/auth/session", () => {
  it("redeems a link for a __Host- session cookie and the session's user, account and CSRF token", async () => {
    const { accountId, ownerId } = await createAccount({ plan: "pro" });
    const email = await ownerEmail(accountId);
    const s = await signIn(email);
    // Max-Age is what is left of the session's 30 minutes: 1800, or 1799 when a second ticked between issuing and answering.
    expect(s.setCookie).toMatch(/^__Host-session=[^;]+; HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=(1800|1799)$/);
    expect(s.body.user).toEqual({ id: ownerId, email, role: "owner" });
    expect(s.body.account).toEqual({ id: accountId, name: "Test Co", plan: "pro" });
    expect(s.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(s.body.expires_at as string) - Date.now();
    expect(expires).toBeGreaterThan(29 * 60 * 1000);
    expect(expires).toBeLessThanOrEqual(30 * 60 * 1000);

    const res = await call("/api/v1/auth/session", { headers: { Cookie: s.cookie } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user: { id: ownerId }, account: { id: accountId }, csrf_token: s.csrf });
    // The cookie is the dashboard JWT: it works on every JWT route, like the Bearer header.
    const account = await call("/api/v1/account", { headers: { Cookie: s.cookie } });
    expect(await account.json()).toMatchObject({ id: accountId, balance: 1000 });
  });

  it("refuses a link used twice (401 magic_link_used)", async () => {
    const { accountId } = await createAccount();
    const email = await ownerEmail(accountId);
    await requestLink(email);
    const token = await latestToken(email);
    expect((await redeem(token)).status).toBe(200);
    const again = await redeem(token);
    expect(again.status).toBe(401);
    expect((await problem(again)).code).toBe("magic_link_used");
    expect(again.headers.get("Set-Cookie")).toBeNull();
  });

  it("refuses an expired link (401 magic_link_expired)", async () => {
    const { accountId } = await createAccount();
    const email = await ownerEmail(accountId);
    await requestLink(email);
    const token = await latestToken(email);
    await env.DB.prepare("UPDATE magic_links SET expires_at = ? WHERE token_hash = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), await hashOf(token))
      .run();
    const res = await redeem(token);
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe("magic_link_expired");
  });

  it("refuses forged tokens (401 magic_link_invalid) and a missing one (422)", async () => {
    const forged = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    for (const token of [forged, "x", "' OR 1=1 --"]) {
      const res = await redeem(token);
      expect(res.status, token).toBe(401);
      expect((await problem(res)).code).toBe("magic_link_invalid");
    }
    const missing = await postJson("/api/v1/auth/session", {}, { Origin: ORIGIN });
    expect(missing.status).toBe(422);
    expect((await problem(missing)).code).toBe("validation_failed");
  });

  it("refuses a sign-in posted from another site without spending the link", async () => {
    const { accountId } = await createAccount();
    const email = await ownerEmail(accountId);
    await requestLink(email);
    const token = await latestToken(email);
    const cross = await redeem(token, { Origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect((await problem(cross)).code).toBe("csrf_failed");
    expect((await redeem(token)).status).toBe(200);
  });

  it("accepts a sign-in without an Origin header (a non-browser client)", async () => {
    const { accountId } = await createAccount();
    const email = await ownerEmail(accountId);
    await requestLink(email);
    const res = await redeem(await latestToken(email), {});
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("refuses the link of a user removed since it was sent", async () => {
    const owner = await createAccount();
    const member = uniqueEmail("member");
    expect((await postJson("/api/v1/team/invitations", { email: member, role: "member" }, withToken(owner.token))).status).toBe(201);
    const invite_token = await mailedInviteToken(member);
    const accepted = (await (await postJson("/api/v1/team/invitations/accept", { invite_token })).json()) as { user: { id: string } };
    await requestLink(member);
    const token = await latestToken(member);
    expect((await call(`/api/v1/team/members/${accepted.user.id}`, { method: "DELETE", headers: withToken(owner.token) })).status).toBe(204);
    const res = await redeem(token);
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe("magic_link_invalid");
  });
});

describe("SIGNUP", () => {
  const app = buildApp();
  const fetchWith = (overrides: Partial<Record<keyof Env | "SIGNUP", string | undefined>>, path: string, init: RequestInit = {}) =>
    app.fetch(new Request(`${ORIGIN}${path}`, init), { ...env, ...overrides }, createExecutionContext());
  const ask = (signup: string, email: string) => requestLink(email, freshIp(), { SIGNUP: signup });

  it("closed (the default): an unknown address gets nothing and cannot sign up", async () => {
    const email = uniqueEmail("closed");
    expect((await ask("closed", email)).status).toBe(202);
    expect(await messagesTo(email)).toEqual([]);
  });

  it("open: an unknown address gets a link that creates a free account with it as owner", async () => {
    const email = uniqueEmail("signup");
    expect((await ask("open", email)).status).toBe(202);
    const [mail] = await messagesTo(email);
    expect(mail).toMatchObject({ template: "signup_link" });
    const token = await latestToken(email);
    const res = await fetchWith({ SIGNUP: "open" }, "/api/v1/auth/session", {
      method: "POST",
      body: JSON.stringify({ token }),
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: { email: string; role: string }; account: { id: string; plan: string } };
    expect(body.user).toMatchObject({ email, role: "owner" });
    expect(body.account.plan).toBe("free");
    const cookie = cookieOf(res.headers.get("Set-Cookie"));
    const account = await call("/api/v1/account", { headers: { Cookie: cookie } });
    expect(await account.json()).toMatchObject({ id: body.account.id, plan: "free", balance: 0 });
    // The address now has a user: its next link is an ordinary sign-in, even with sign-up closed.
    expect((await ask("closed", email)).status).toBe(202);
    expect((await messagesTo(email))[0].template).toBe("magic_link");
  });

  it("a sign-up link redeemed after sign-up was closed creates nothing", async () => {
    const email = uniqueEmail("late");
    await ask("open", email);
    const res = await redeem(await latestToken(email));
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe("magic_link_invalid");
    const users = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?").bind(email).first<{ n: number }>();
    expect(users?.n).toBe(0);
  });

  it("a SIGNUP value other than open or closed is a 503 naming it", async () => {
    const res = await fetchWith({ SIGNUP: "maybe" }, "/api/v1/account");
    expect(res.status).toBe(503);
    expect((await problem(res)).detail).toContain("SIGNUP");
  });
});
