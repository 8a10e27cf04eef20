import type { Env } from "../env";
import { issueToken } from "./jwt";
import { SESSION_POLICY } from "./session-policy";

// Console sessions: a row in D1 per sign-in, named by the `sid` claim of the
// dashboard JWT the cookie holds. The JWT's exp is the idle expiry; renewing
// re-issues it and pushes the row's expires_at, never past the absolute
// expiry. identify() refuses a JWT whose session is revoked or has ended, so
// sign-out works although JWTs are stateless.

export interface IssuedSession {
  id: string;
  token: string;
  /** Unix seconds: when this token (and the cookie) expires unless renewed. */
  expiresAt: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** Starts a session for a user and answers its first token. */
export async function createSession(env: Env, userId: string, accountId: string, req: Request): Promise<IssuedSession> {
  const now = nowSeconds();
  const id = `ses_${crypto.randomUUID().replace(/-/g, "")}`;
  const expiresAt = now + SESSION_POLICY.idleSeconds;
  await env.DB.prepare(
    `INSERT INTO sessions (id, user_id, account_id, expires_at, absolute_expires_at, last_seen_at, ip, user_agent)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
  )
    .bind(
      id,
      userId,
      accountId,
      iso(expiresAt),
      iso(now + SESSION_POLICY.absoluteSeconds),
      iso(now),
      req.headers.get("CF-Connecting-IP"),
      (req.headers.get("User-Agent") ?? "").slice(0, 300) || null,
    )
    .run();
  return { id, expiresAt, token: await issueToken(env, userId, accountId, SESSION_POLICY.idleSeconds, id) };
}

/**
 * Pushes a live session's idle expiry forward and answers a fresh token, or
 * null when the session was revoked or has ended meanwhile. One conditional
 * UPDATE, so a concurrent sign-out wins.
 */
export async function renewSession(env: Env, sessionId: string, userId: string, accountId: string): Promise<IssuedSession | null> {
  const now = nowSeconds();
  const row = await env.DB.prepare(
    `UPDATE sessions
        SET expires_at = MIN(?2, absolute_expires_at), last_seen_at = ?3
      WHERE id = ?1 AND revoked_at IS NULL AND expires_at > ?3 AND absolute_expires_at > ?3
      RETURNING expires_at AS expiresAt`,
  )
    .bind(sessionId, iso(now + SESSION_POLICY.idleSeconds), iso(now))
    .first<{ expiresAt: string }>();
  if (!row) return null;
  const expiresAt = Math.floor(Date.parse(row.expiresAt) / 1000);
  if (expiresAt <= now) return null;
  return { id: sessionId, expiresAt, token: await issueToken(env, userId, accountId, expiresAt - now, sessionId) };
}

export async function revokeSession(env: Env, sessionId: string): Promise<void> {
  await env.DB.prepare("UPDATE sessions SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL").bind(sessionId, new Date().toISOString()).run();
}

/** Not revoked, not idle too long, not past its absolute expiry, and the same user's. */
export async function sessionIsLive(env: Env, sessionId: string, userId: string): Promise<boolean> {
  const row = await env.DB.prepare(
    "SELECT 1 AS ok FROM sessions WHERE id = ?1 AND user_id = ?2 AND revoked_at IS NULL AND expires_at > ?3 AND absolute_expires_at > ?3",
  )
    .bind(sessionId, userId, new Date().toISOString())
    .first<{ ok: number }>();
  return row !== null;
}

/** Rows kept this long after they stopped mattering (for an operator looking into a sign-in). */
const KEEP_ENDED_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes sign-in links past their expiry and sessions that ended (expired or
 * revoked) more than a day ago; run by the cron trigger. Answers rows deleted.
 */
export async function purgeEndedSignIns(db: D1Database): Promise<number> {
  const before = new Date(Date.now() - KEEP_ENDED_MS).toISOString();
  const [links, sessions] = await db.batch([
    db.prepare("DELETE FROM magic_links WHERE expires_at < ?1").bind(before),
    db.prepare("DELETE FROM sessions WHERE expires_at < ?1 OR absolute_expires_at < ?1 OR revoked_at < ?1").bind(before),
  ]);
  return links.meta.changes + sessions.meta.changes;
}
