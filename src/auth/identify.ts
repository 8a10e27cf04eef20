import { and, eq, isNull } from "drizzle-orm";
import type { PlanName } from "../config";
import { database, schema } from "../db/client";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { hashKeySecret } from "./api-keys";
import { recordKeyUse } from "./key-usage";
import { readSessionCookie } from "./cookie";
import { checkCsrf } from "./csrf";
import { verifyToken } from "./jwt";
import type { KeyPermission, Principal, Role } from "./principal";
import { sessionIsLive } from "./sessions";

/**
 * Resolves the caller. A credential that is present but wrong is a 401, never
 * a silent fall-back to anonymous. Keys and users are read from D1 on every
 * call so that revocation and removal take effect at once. The console's
 * session cookie counts only when no other credential is sent, and a
 * state-changing request it authenticates must pass the CSRF check.
 */
export async function identify(env: Env, req: Request): Promise<Principal> {
  const apiKey = req.headers.get("X-API-Key");
  if (apiKey) return identifyKey(env, apiKey);
  const auth = req.headers.get("Authorization");
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    if (!m) throw new ApiError("invalid_credentials", "Authorization must be 'Bearer <token>'.");
    return identifyUser(env, m[1].trim(), "bearer");
  }
  const cookie = readSessionCookie(req);
  if (cookie) {
    const user = await identifyUser(env, cookie, "cookie");
    // A cookie always names a session: it is only ever set by POST /api/v1/auth/session.
    if (user.kind !== "user" || !user.session) throw new ApiError("invalid_credentials", "The session cookie is not a console session.");
    await checkCsrf(env, req, user.session.id);
    return user;
  }
  return { kind: "anonymous", ip: req.headers.get("CF-Connecting-IP") ?? "unknown" };
}

async function identifyKey(env: Env, secret: string): Promise<Principal> {
  const db = database(env.DB);
  const hash = await hashKeySecret(secret);
  const rows = await db
    .select({ key: schema.apiKeys, plan: schema.accounts.plan })
    .from(schema.apiKeys)
    .innerJoin(schema.accounts, eq(schema.accounts.id, schema.apiKeys.accountId))
    .where(and(eq(schema.apiKeys.keyHash, hash), isNull(schema.apiKeys.revokedAt)))
    .limit(1);
  const row = rows[0];
  if (!row) throw new ApiError("invalid_credentials", "The API key is invalid or has been revoked.");
  if (row.key.expiresAt && Date.parse(row.key.expiresAt) <= Date.now()) {
    throw new ApiError("invalid_credentials", "The API key has expired.");
  }
  recordKeyUse(env, row.key.id, row.key.lastUsedAt);
  return {
    kind: "key",
    accountId: row.key.accountId,
    plan: row.plan as PlanName,
    keyId: row.key.id,
    userId: row.key.createdBy,
    scopes: JSON.parse(row.key.scopes) as string[],
    permissions: JSON.parse(row.key.permissions) as KeyPermission[],
    creditLimit: row.key.creditLimit,
  };
}

async function identifyUser(env: Env, token: string, via: "cookie" | "bearer"): Promise<Principal> {
  const claims = await verifyToken(env, token);
  const db = database(env.DB);
  // The session check (console JWTs only) and the user lookup are independent reads: one round-trip of latency.
  const [live, rows] = await Promise.all([
    claims.sid === undefined ? true : sessionIsLive(env, claims.sid, claims.sub),
    db
      .select({ user: schema.users, plan: schema.accounts.plan })
      .from(schema.users)
      .innerJoin(schema.accounts, eq(schema.accounts.id, schema.users.accountId))
      .where(and(eq(schema.users.id, claims.sub), isNull(schema.users.removedAt)))
      .limit(1),
  ]);
  if (!live) throw new ApiError("invalid_credentials", "This session has ended (signed out or expired); sign in again.");
  const row = rows[0];
  if (!row || row.user.accountId !== claims.org) {
    throw new ApiError("invalid_credentials", "The user of this token no longer exists.");
  }
  const session = claims.sid !== undefined ? { id: claims.sid, via, issuedAt: claims.iat, expiresAt: claims.exp } : undefined;
  return { kind: "user", accountId: row.user.accountId, plan: row.plan as PlanName, userId: row.user.id, role: row.user.role as Role, session };
}
