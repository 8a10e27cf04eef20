import { and, eq, isNull } from "drizzle-orm";
import type { PlanName } from "../config";
import { database, schema } from "../db/client";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { hashKeySecret } from "./api-keys";
import { verifyToken } from "./jwt";
import type { KeyPermission, Principal, Role } from "./principal";

/**
 * Resolves the caller. A credential that is present but wrong is a 401, never
 * a silent fall-back to anonymous. Keys and users are read from D1 on every
 * call so that revocation and removal take effect at once.
 */
export async function identify(env: Env, req: Request): Promise<Principal> {
  const apiKey = req.headers.get("X-API-Key");
  if (apiKey) return identifyKey(env, apiKey);
  const auth = req.headers.get("Authorization");
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    if (!m) throw new ApiError("invalid_credentials", "Authorization must be 'Bearer <token>'.");
    return identifyUser(env, m[1].trim());
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

async function identifyUser(env: Env, token: string): Promise<Principal> {
  const claims = await verifyToken(env, token);
  const db = database(env.DB);
  const rows = await db
    .select({ user: schema.users, plan: schema.accounts.plan })
    .from(schema.users)
    .innerJoin(schema.accounts, eq(schema.accounts.id, schema.users.accountId))
    .where(and(eq(schema.users.id, claims.sub), isNull(schema.users.removedAt)))
    .limit(1);
  const row = rows[0];
  if (!row || row.user.accountId !== claims.org) {
    throw new ApiError("invalid_credentials", "The user of this token no longer exists.");
  }
  return { kind: "user", accountId: row.user.accountId, plan: row.plan as PlanName, userId: row.user.id, role: row.user.role as Role };
}
