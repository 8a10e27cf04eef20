import { sign, verify } from "hono/jwt";
import { LIMITS } from "../config";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { keyFor } from "../secrets/keys";

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
  // HS256 under a key derived from JWT_SECRET for this use alone (secrets/keys.ts).
  return sign({ ...claims }, await keyFor(env, "dashboard-jwt"), "HS256");
}

/** Verifies signature and expiry; any failure is a 401. */
export async function verifyToken(env: Env, token: string): Promise<DashboardClaims> {
  try {
    const payload = await verify(token, await keyFor(env, "dashboard-jwt"), "HS256");
    if (typeof payload.sub !== "string" || typeof payload.org !== "string") throw new Error("claims");
    if (payload.sid !== undefined && typeof payload.sid !== "string") throw new Error("claims");
    return payload as unknown as DashboardClaims;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError("invalid_credentials", "The bearer token is invalid or expired.");
  }
}
