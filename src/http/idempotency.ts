import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import type { AppContext, AppEnv } from "./context";
import { principalOf } from "./context";

// Idempotency-Key on POSTs that charge or create, with Stripe's semantics:
// the same key with the same request within 24 hours answers what the first
// request answered, without running (or charging) again; the same key with a
// different request is 422; a retry while the first still runs is 409.
// Without the header nothing changes.
//
// An answer is kept for the credential that earned it (one API key, one
// dashboard user, or the operator) and replayed only to that credential.
// Keys of one account differ in scopes, permissions and monthly budget, and
// users in role: an answer kept per account would hand one key's result to
// another key that may not run the call at all (issue #31). A credential
// that is revoked, or a user who was removed, fails authentication before
// the store is consulted.

const HEADER = "Idempotency-Key";
const KEEP_MS = 24 * 3600 * 1000;
/** A request still "running" after this long died without an answer; its key may be used again. */
const ABANDONED_MS = 10 * 60 * 1000;
/** Response headers a replay carries; request ids are fresh, and say so by being new. */
const REPLAYED_HEADERS = ["Content-Type", "X-Credits-Charged", "Location"];
/**
 * Top-level fields never stored: credentials are shown once. `api_key` (a
 * new key), `secret` (a webhook endpoint's), `token` (a dashboard JWT, as
 * the operator's account creation answers) and `invite_token`. A replay
 * answers them as null (the docs say so); the caller who lost the first
 * answer revokes and creates again, or asks for a new token.
 */
const SECRET_FIELDS: readonly string[] = ["api_key", "secret", "token", "invite_token"];

export type Scope = (c: AppContext) => Promise<string | null>;

/** The credential of the call: anonymous calls have none and go through without the store. */
export const callerScope: Scope = async (c) => {
  const p = await principalOf(c).catch(() => null);
  if (!p || p.kind === "anonymous") return null;
  return p.kind === "key" ? `key:${p.keyId}` : `user:${p.userId}`;
};

/** Operator routes (behind the admin token, checked before this runs). */
export const operatorScope: Scope = async () => "operator";

interface Row {
  request_hash: string;
  state: string;
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: string;
}

export function idempotent(scopeOf: Scope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header(HEADER);
    if (key === undefined) return next();
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new ApiError("bad_request", `${HEADER} must be 1 to 255 visible ASCII characters.`);
    const scope = await scopeOf(c);
    if (!scope) return next();
    const hash = await requestHash(c.req.raw);
    const db = c.env.DB;

    const claimed = await claim(db, scope, key, hash);
    if (!claimed) {
      const row = await db
        .prepare("SELECT request_hash, state, status, headers, body, created_at FROM idempotency_keys WHERE scope = ? AND key = ?")
        .bind(scope, key)
        .first<Row>();
      if (!row) throw new ApiError("idempotency_in_progress", "A request with this Idempotency-Key was just taken; retry.");
      if (row.request_hash !== hash) {
        throw new ApiError("idempotency_key_reused", `This ${HEADER} was used for a different request in the last 24 hours; use a new key.`);
      }
      if (row.state === "running") throw new ApiError("idempotency_in_progress", `A request with this ${HEADER} is still running; retry when it has answered.`);
      return replay(row);
    }

    await next();
    const res = c.res;
    // Failures of ours or of the moment (5xx, 409, 429, and 499 for a call
    // whose client left) are not the answer to keep: the key is freed so the
    // same request can be retried.
    if (res.status >= 499 || res.status === 409 || res.status === 429) {
      await db.prepare("DELETE FROM idempotency_keys WHERE scope = ? AND key = ?").bind(scope, key).run();
      return;
    }
    const headers: Record<string, string> = {};
    for (const h of REPLAYED_HEADERS) {
      const v = res.headers.get(h);
      if (v !== null) headers[h] = v;
    }
    await db
      .prepare("UPDATE idempotency_keys SET state = 'done', status = ?, headers = ?, body = ? WHERE scope = ? AND key = ?")
      .bind(res.status, JSON.stringify(headers), withoutSecrets(await res.clone().text()), scope, key)
      .run();
  };
}

/**
 * Takes the key for this request in one statement (atomic in D1): a new
 * row, or an old one that expired or was abandoned. False when another
 * request holds it.
 */
async function claim(db: D1Database, scope: string, key: string, hash: string): Promise<boolean> {
  const now = Date.now();
  const expired = new Date(now - KEEP_MS).toISOString();
  const abandoned = new Date(now - ABANDONED_MS).toISOString();
  const result = await db
    .prepare(
      `INSERT INTO idempotency_keys (scope, key, request_hash, state) VALUES (?1, ?2, ?3, 'running')
       ON CONFLICT (scope, key) DO UPDATE SET request_hash = ?3, state = 'running', status = NULL, headers = NULL, body = NULL,
         created_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')
       WHERE created_at < ?4 OR (state = 'running' AND created_at < ?5)`,
    )
    .bind(scope, key, hash, expired, abandoned)
    .run();
  return result.meta.changes > 0;
}

function replay(row: Row): Response {
  const headers = new Headers(JSON.parse(row.headers ?? "{}") as Record<string, string>);
  headers.set("Idempotent-Replayed", "true");
  return new Response(row.body, { status: row.status ?? 200, headers });
}

function withoutSecrets(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (!body || typeof body !== "object" || Array.isArray(body)) return text;
    for (const f of SECRET_FIELDS) if (f in body) body[f] = null;
    return JSON.stringify(body);
  } catch {
    return text;
  }
}

/**
 * SHA-256 of the request as the server reads it: method, path and query,
 * then the fields. A multipart body is hashed field by field (names, values,
 * file names, types and bytes), because every client picks its own boundary
 * and the same form sent twice differs in its raw bytes.
 */
export async function requestHash(req: Request): Promise<string> {
  const url = new URL(req.url);
  const parts: (string | Uint8Array)[] = [req.method, url.pathname, url.search];
  const type = req.headers.get("Content-Type") ?? "";
  if (type.startsWith("multipart/form-data")) {
    const form = await req.clone().formData();
    for (const [name, value] of form) {
      parts.push(name);
      if (typeof value === "string") parts.push(value);
      else parts.push(value.name, value.type, new Uint8Array(await value.arrayBuffer()));
    }
  } else {
    parts.push(type.split(";")[0].trim(), new Uint8Array(await req.clone().arrayBuffer()));
  }
  const digest = await crypto.subtle.digest("SHA-256", await new Blob(parts.flatMap((p) => [lengthOf(p), p])).arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A length prefix per part, so ("ab","c") and ("a","bc") hash apart. */
const lengthOf = (p: string | Uint8Array) => `${typeof p === "string" ? new TextEncoder().encode(p).length : p.length}:`;

/** Deletes answers older than 24 hours (the daily cron); a key past that is free anyway. */
export async function purgeIdempotencyKeys(db: D1Database): Promise<number> {
  const result = await db
    .prepare("DELETE FROM idempotency_keys WHERE created_at < ?")
    .bind(new Date(Date.now() - KEEP_MS).toISOString())
    .run();
  return result.meta.changes;
}
