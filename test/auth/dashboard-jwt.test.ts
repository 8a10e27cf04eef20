import { env } from "cloudflare:workers";
import { sign, verify } from "hono/jwt";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/secrets/encoding";
import { createAccount } from "../support/accounts";
import { ADMIN_TOKEN, call, postJson, problem, withToken } from "../support/http";
import { signIn, ownerEmail } from "./console/support";

// Issue #31, item 1: the dashboard JWT is HS256 under JWT_SECRET itself
// (docs/reference/accounts-and-keys.md, Credentials), so an operator's own identity system can mint
// one with nothing but the configured secret and the claims sub, org, iat, exp.

/** vitest.config.ts sets this JWT_SECRET for the Worker under test. */
const JWT_SECRET = "test-jwt-secret-0123456789abcdef";
const now = () => Math.floor(Date.now() / 1000);
const account = (token: string) => call("/api/v1/account", { headers: withToken(token) });

const b64url = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)));

describe("dashboard JWTs minted outside the service", () => {
  it("a token signed with JWT_SECRET (hono/jwt, HS256) for a real user is accepted", async () => {
    expect(env.JWT_SECRET).toBe(JWT_SECRET);
    const acct = await createAccount({ credits: 12 });
    const token = await sign({ sub: acct.ownerId, org: acct.accountId, iat: now(), exp: now() + 600 }, JWT_SECRET, "HS256");
    const res = await account(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: acct.accountId, balance: 12 });
    // Team routes (JWT only) take it too.
    expect((await call("/api/v1/team/members", { headers: withToken(token) })).status).toBe(200);
  });

  it("refuses a wrong secret, alg none, another algorithm, an expired token, missing claims and a foreign org with 401", async () => {
    const acct = await createAccount();
    const other = await createAccount();
    const claims = { sub: acct.ownerId, org: acct.accountId, iat: now(), exp: now() + 600 };
    const unsigned = `${b64url({ alg: "none", typ: "JWT" })}.${b64url(claims)}.`;
    const bad: Record<string, string> = {
      "wrong secret": await sign(claims, "another-secret-0123456789abcdef", "HS256"),
      "alg none": unsigned,
      "alg none, signature kept": `${b64url({ alg: "none", typ: "JWT" })}.${b64url(claims)}.${(await sign(claims, JWT_SECRET, "HS256")).split(".")[2]}`,
      HS512: await sign(claims, JWT_SECRET, "HS512"),
      expired: await sign({ ...claims, iat: now() - 7200, exp: now() - 60 }, JWT_SECRET, "HS256"),
      "no exp": await sign({ sub: acct.ownerId, org: acct.accountId, iat: now() }, JWT_SECRET, "HS256"),
      "no org": await sign({ sub: acct.ownerId, iat: now(), exp: now() + 600 }, JWT_SECRET, "HS256"),
      "another account's org": await sign({ ...claims, org: other.accountId }, JWT_SECRET, "HS256"),
      "unknown user": await sign({ ...claims, sub: "usr_nobody" }, JWT_SECRET, "HS256"),
    };
    for (const [what, token] of Object.entries(bad)) {
      const res = await account(token);
      expect(res.status, what).toBe(401);
      expect((await problem(res)).code, what).toBe("invalid_credentials");
    }
  });

  it("tokens the service issues are the same kind: the operator's verify with JWT_SECRET", async () => {
    const acct = await createAccount();
    const claims = await verify(acct.token, JWT_SECRET, "HS256");
    expect(claims).toMatchObject({ sub: acct.ownerId, org: acct.accountId });
    expect(typeof claims.iat).toBe("number");
    expect(typeof claims.exp).toBe("number");
    const issued = await postJson(`/admin/v1/users/${acct.ownerId}/tokens`, { ttl_seconds: 600 }, { Authorization: `Bearer ${ADMIN_TOKEN}` });
    const { token } = (await issued.json()) as { token: string };
    expect((await verify(token, JWT_SECRET, "HS256")).sub).toBe(acct.ownerId);
  });

  it("console session tokens (sid claim) still work, as cookie and as bearer, and stop at sign-out", async () => {
    const acct = await createAccount();
    const session = await signIn(await ownerEmail(acct.accountId));
    const claims = await verify(session.jwt, JWT_SECRET, "HS256");
    expect(typeof claims.sid).toBe("string");
    expect((await call("/api/v1/account", { headers: { Cookie: session.cookie } })).status).toBe(200);
    expect((await account(session.jwt)).status).toBe(200);
    expect((await call("/api/v1/auth/session", { method: "DELETE", headers: withToken(session.jwt) })).status).toBe(204);
    expect((await account(session.jwt)).status).toBe(401);
  });
});
