import { and, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { displayPrefix, generateKeySecret, hashKeySecret } from "../auth/api-keys";
import { LAST_USE_INTERVAL_MS } from "../auth/key-usage";
import { KEY_PERMISSIONS, type KeyPermission } from "../auth/principal";
import { meterFor } from "../billing/meter";
import { PLANS } from "../config";
import { database, schema } from "../db/client";
import { ApiError } from "../errors";
import { defineRoute } from "../http/route";
import { OPERATION_KEYS, scopeCatalog } from "../tools/registry";
import { emitEvent } from "../webhooks/emit";
import { planName } from "../config";

const createKeySchema = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(500).optional(),
  permissions: z.array(z.enum(KEY_PERMISSIONS as [string, ...string[]])).default(["read", "write"]),
  scopes: z.array(z.string().refine((s) => s === "*" || OPERATION_KEYS.has(s), { message: "Unknown operation key; see GET /api/v1/keys/scopes." })).default([]),
  credit_limit: z.number().int().min(0).nullable().optional(),
  expires_in_days: z.number().int().min(1).max(3650).optional(),
});

type KeyRow = typeof schema.apiKeys.$inferSelect;

function isActive(k: KeyRow): boolean {
  return !k.revokedAt && (!k.expiresAt || Date.parse(k.expiresAt) > Date.now());
}

function present(k: KeyRow, used: number) {
  const scopes = JSON.parse(k.scopes) as string[];
  return {
    id: k.id,
    name: k.name,
    description: k.description,
    key_prefix: k.keyPrefix,
    scopes: scopes.length === 0 ? ["*"] : scopes,
    permissions: JSON.parse(k.permissions) as string[],
    credit_limit: k.creditLimit,
    credits_used: used,
    is_active: isActive(k),
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
    last_used_at: k.lastUsedAt,
  };
}

const tags = ["keys"];

const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  key_prefix: z.string().describe("The first characters of the secret, to recognise a key by."),
  scopes: z.array(z.string()).describe('Operation keys the key may run; ["*"] for all.'),
  permissions: z.array(z.enum(KEY_PERMISSIONS as [KeyPermission, ...KeyPermission[]])),
  credit_limit: z.number().int().nullable().describe("Credits the key may spend per calendar month; null for no limit."),
  credits_used: z.number().int().describe("Credits spent by the key this month."),
  is_active: z.boolean(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z
    .string()
    .nullable()
    .describe(
      `When the key last authenticated a request, to within ${LAST_USE_INTERVAL_MS / 60_000} minutes (it is recorded at most that often); null if never used.`,
    ),
});

const keyIdParams = z.object({ keyId: z.string().describe("The key's id (key_...).") });

// API key management: JWT only (docs/reference/accounts-and-keys.md, Keys and account).

const listScopes = defineRoute({
  id: "listKeyScopes",
  method: "get",
  path: "/api/v1/keys/scopes",
  tags,
  summary: "List the operation keys a key can be scoped to",
  auth: "jwt",
  responses: {
    200: {
      description: "Every billable operation once",
      schema: z.object({
        data: z.array(
          z.object({ operation: z.string(), name: z.string(), credits: z.number().int(), access: z.string(), method: z.string(), path: z.string() }),
        ),
      }),
    },
  },
  handler: (c) =>
    c.json({
      data: scopeCatalog().map((s) => ({ operation: s.key, name: s.name, credits: s.credits, access: s.access, method: s.method, path: s.path })),
    }),
});

const keyLimits = defineRoute({
  id: "getKeyLimits",
  method: "get",
  path: "/api/v1/keys/limits",
  tags,
  summary: "How many active keys the plan allows",
  auth: "jwt",
  responses: {
    200: {
      description: "The plan's key cap and its use",
      schema: z.object({ plan: planName, max_keys: z.number().int(), active_keys: z.number().int(), remaining: z.number().int() }),
    },
  },
  handler: async (c, { caller }) => {
    const active = await activeKeyCount(c.env.DB, caller.accountId);
    const max = PLANS[caller.plan].keyCap;
    return c.json({ plan: caller.plan, max_keys: max, active_keys: active, remaining: Math.max(0, max - active) });
  },
});

const listKeys = defineRoute({
  id: "listKeys",
  method: "get",
  path: "/api/v1/keys",
  tags,
  summary: "List the account's API keys, newest first",
  auth: "jwt",
  responses: { 200: { description: "Every key of the account, revoked and expired ones too", schema: z.object({ data: z.array(apiKeyView) }) } },
  handler: async (c, { caller }) => {
    const rows = await database(c.env.DB)
      .select()
      .from(schema.apiKeys)
      .where(eq(schema.apiKeys.accountId, caller.accountId))
      .orderBy(desc(schema.apiKeys.createdAt));
    const spend: Record<string, number> = rows.length ? await meterFor(c.env, caller.accountId).keySpend(rows.map((r) => r.id)) : {};
    return c.json({ data: rows.map((r) => present(r, spend[r.id] ?? 0)) });
  },
});

const getKey = defineRoute({
  id: "getKey",
  method: "get",
  path: "/api/v1/keys/{keyId}",
  tags,
  summary: "One API key",
  auth: "jwt",
  params: keyIdParams,
  problems: ["not_found"],
  responses: { 200: { description: "The key, as the list shows it; never its secret", schema: apiKeyView } },
  handler: async (c, { caller, params }) => {
    const rows = await database(c.env.DB)
      .select()
      .from(schema.apiKeys)
      .where(and(eq(schema.apiKeys.id, params.keyId), eq(schema.apiKeys.accountId, caller.accountId)))
      .limit(1);
    if (!rows[0]) throw new ApiError("not_found", "No such key in your account.");
    const spend = await meterFor(c.env, caller.accountId).keySpend([rows[0].id]);
    return c.json(present(rows[0], spend[rows[0].id] ?? 0));
  },
});

const createKey = defineRoute({
  id: "createKey",
  method: "post",
  path: "/api/v1/keys",
  tags,
  summary: "Create an API key",
  description: "The secret (`api_key`) is shown in this answer only; an Idempotency-Key replay answers it as null.",
  auth: "jwt",
  body: createKeySchema,
  idempotent: true,
  problems: ["key_limit_reached"],
  responses: { 201: { description: "The new key with its secret", schema: apiKeyView.extend({ api_key: z.string().nullable() }) } },
  handler: async (c, { caller: user, body }) => {
    const secret = generateKeySecret();
    const id = `key_${crypto.randomUUID().replace(/-/g, "")}`;
    const scopes = body.scopes.includes("*") ? [] : [...new Set(body.scopes)];
    const expiresAt = body.expires_in_days ? new Date(Date.now() + body.expires_in_days * 86_400_000).toISOString() : null;
    const cap = PLANS[user.plan].keyCap;
    // One conditional INSERT: the cap check and the insert are atomic in D1,
    // so two concurrent creations cannot both take the last slot.
    const result = await c.env.DB.prepare(
      `INSERT INTO api_keys (id, account_id, created_by, name, description, key_prefix, key_hash, scopes, permissions, credit_limit, expires_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
       WHERE (SELECT COUNT(*) FROM api_keys WHERE account_id = ? AND revoked_at IS NULL
              AND (expires_at IS NULL OR expires_at > strftime('%Y-%m-%dT%H:%M:%fZ','now'))) < ?`,
    )
      .bind(
        id,
        user.accountId,
        user.userId,
        body.name,
        body.description ?? null,
        displayPrefix(secret),
        await hashKeySecret(secret),
        JSON.stringify(scopes),
        JSON.stringify([...new Set(body.permissions)]),
        body.credit_limit ?? null,
        expiresAt,
        user.accountId,
        cap,
      )
      .run();
    if (!result.meta.changes) {
      throw new ApiError("key_limit_reached", `The ${user.plan} plan allows ${cap} active keys; revoke one first.`);
    }
    const row = (await database(c.env.DB).select().from(schema.apiKeys).where(eq(schema.apiKeys.id, id)).limit(1))[0];
    await emitEvent(c.env, user.accountId, "apikey.created", { key_id: id, name: row.name, key_prefix: row.keyPrefix });
    return c.json({ ...present(row, 0), api_key: secret }, 201);
  },
});

const revokeKey = defineRoute({
  id: "revokeKey",
  method: "delete",
  path: "/api/v1/keys/{keyId}",
  tags,
  summary: "Revoke an API key",
  description: "Refused at once on its next use. Revoking a revoked key changes nothing and answers 204 again.",
  auth: "jwt",
  params: keyIdParams,
  problems: ["not_found"],
  responses: { 204: { description: "Revoked" } },
  handler: async (c, { caller: user, params }) => {
    const { keyId } = params;
    const db = database(c.env.DB);
    const rows = await db
      .select()
      .from(schema.apiKeys)
      .where(and(eq(schema.apiKeys.id, keyId), eq(schema.apiKeys.accountId, user.accountId)))
      .limit(1);
    if (!rows[0]) throw new ApiError("not_found", "No such key in your account.");
    if (!rows[0].revokedAt) {
      await db
        .update(schema.apiKeys)
        .set({ revokedAt: new Date().toISOString() })
        .where(and(eq(schema.apiKeys.id, keyId), isNull(schema.apiKeys.revokedAt)));
      await emitEvent(c.env, user.accountId, "apikey.revoked", { key_id: keyId, name: rows[0].name });
    }
    return c.body(null, 204);
  },
});

export const KEY_ROUTES = [listScopes, keyLimits, listKeys, getKey, createKey, revokeKey];

async function activeKeyCount(d1: D1Database, accountId: string): Promise<number> {
  const row = await d1
    .prepare(
      `SELECT COUNT(*) AS n FROM api_keys WHERE account_id = ? AND revoked_at IS NULL
       AND (expires_at IS NULL OR expires_at > strftime('%Y-%m-%dT%H:%M:%fZ','now'))`,
    )
    .bind(accountId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
