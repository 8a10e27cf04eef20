import { sign, verify } from "hono/jwt";
import { LIMITS } from "../config";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { settingsOf } from "../settings";

// Dashboard JWTs are HS256 under JWT_SECRET itself, not under a key derived
// from it (docs/reference/accounts-and-keys.md, Credentials): operators mint them in their own
// identity systems, which only know the configured secret. Every other use
// of JWT_SECRET (file links, CSRF, webhook sealing) derives a key of its own
// (secrets/keys.ts), so none of them can be turned into a dashboard token.

export interface DashboardClaims {
  sub: string;
  org: string;
  iat: number;
  exp: number;
  /** A console session (auth/sessions.ts): the token is refused once that session ends. */
  sid?: string;
}

export async function issueToken(env: Env, userId: string, accountId: string, ttlSeconds: number = LIMITS.jwtTtlSeconds, sessionId?: string): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  const claims: DashboardClaims = { sub: userId, org: accountId, iat, exp: iat + ttlSeconds, ...(sessionId ? { sid: sessionId } : {}) };
  return sign({ ...claims }, settingsOf(env).JWT_SECRET, "HS256");
}

/**
 * Verifies signature (HS256 only: `none` and every other algorithm are
 * refused), expiry and the claims; any failure is a 401. `exp` is required:
 * a token minted elsewhere without one would never stop working.
 */
export async function verifyToken(env: Env, token: string): Promise<DashboardClaims> {
  const secret = settingsOf(env).JWT_SECRET;
  try {
    const payload = await verify(token, secret, "HS256");
    if (typeof payload.sub !== "string" || typeof payload.org !== "string") throw new Error("claims");
    if (typeof payload.iat !== "number" || typeof payload.exp !== "number") throw new Error("claims");
    if (payload.sid !== undefined && typeof payload.sid !== "string") throw new Error("claims");
    return payload as unknown as DashboardClaims;
  } catch {
    throw new ApiError("invalid_credentials", "The bearer token is invalid or expired.");
  }
}
