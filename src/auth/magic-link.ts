import type { Env } from "../env";
import { ApiError } from "../errors";
import type { Mail } from "../mail/mailer";
import { magicLinkMail, signupLinkMail } from "../mail/templates";
import { settingsOf } from "../settings";
import { toBase64Url } from "../secrets/encoding";
import { hashKeySecret } from "./api-keys";
import { SESSION_POLICY } from "./session-policy";

// E-mailed sign-in links (issue #17). The token is 32 random bytes, stored
// only as its SHA-256; it lives 15 minutes and is spent by one atomic UPDATE.
// Asking for a link never says whether the address is known: the caller gets
// the same answer, and only the owner of the mailbox learns more.

const iso = (ms: number) => new Date(ms).toISOString();

interface ActiveUser {
  id: string;
  accountId: string;
}

async function activeUserByEmail(env: Env, email: string): Promise<ActiveUser | null> {
  return env.DB.prepare("SELECT id, account_id AS accountId FROM users WHERE email = ?1 AND removed_at IS NULL").bind(email).first<ActiveUser>();
}

/**
 * The mail to send for a link request, or null when none goes out (unknown
 * address with sign-up closed, or the address's quota of links is used up).
 * The quota check and the insert are one statement, so concurrent requests
 * cannot exceed it.
 */
export async function issueMagicLink(env: Env, email: string, ip: string | null, origin: string): Promise<Mail | null> {
  const user = await activeUserByEmail(env, email);
  if (!user && settingsOf(env).SIGNUP !== "open") return null;
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const now = Date.now();
  const inserted = await env.DB.prepare(
    `INSERT INTO magic_links (id, token_hash, email, user_id, requested_ip, created_at, expires_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
      WHERE (SELECT COUNT(*) FROM magic_links WHERE email = ?3 AND created_at > ?8) < ?9`,
  )
    .bind(
      `mlk_${crypto.randomUUID().replace(/-/g, "")}`,
      await hashKeySecret(token),
      email,
      user?.id ?? null,
      ip,
      iso(now),
      iso(now + SESSION_POLICY.magicLinkSeconds * 1000),
      iso(now - SESSION_POLICY.magicLinkWindowSeconds * 1000),
      SESSION_POLICY.magicLinksPerEmail,
    )
    .run();
  if (!inserted.meta.changes) {
    console.warn("auth: magic-link quota reached for an address; request dropped");
    return null;
  }
  return user ? magicLinkMail(origin, email, user.accountId, token) : signupLinkMail(origin, email, token);
}

/** Spends a link: answers the user it signs in, creating the account first for a sign-up link. */
export async function redeemMagicLink(env: Env, token: string): Promise<ActiveUser> {
  const hash = await hashKeySecret(token);
  const now = new Date().toISOString();
  const spent = await env.DB.prepare(
    `UPDATE magic_links SET used_at = ?2
      WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2
      RETURNING email, user_id AS userId`,
  )
    .bind(hash, now)
    .first<{ email: string; userId: string | null }>();
  if (!spent) throw await whyRefused(env, hash);

  const user = await activeUserByEmail(env, spent.email);
  if (user) return user;
  // The user the link was sent to was removed meanwhile, or sign-up was closed since.
  if (spent.userId !== null || settingsOf(env).SIGNUP !== "open") {
    throw new ApiError("magic_link_invalid", "This sign-in link no longer leads to an account.");
  }
  return signUp(env, spent.email);
}

async function whyRefused(env: Env, hash: string): Promise<ApiError> {
  const row = await env.DB.prepare("SELECT used_at AS usedAt FROM magic_links WHERE token_hash = ?1").bind(hash).first<{ usedAt: string | null }>();
  if (!row) return new ApiError("magic_link_invalid", "This sign-in link is not valid; ask for a new one.");
  if (row.usedAt) return new ApiError("magic_link_used", "This sign-in link was already used; ask for a new one.");
  return new ApiError("magic_link_expired", "This sign-in link has expired; ask for a new one.");
}

/** SIGNUP=open: a free account with no credits, owned by the address. */
async function signUp(env: Env, email: string): Promise<ActiveUser> {
  const accountId = `acc_${crypto.randomUUID().replace(/-/g, "")}`;
  const userId = `usr_${crypto.randomUUID().replace(/-/g, "")}`;
  try {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO accounts (id, name, plan) VALUES (?1, ?2, 'free')").bind(accountId, email),
      env.DB.prepare("INSERT INTO users (id, account_id, email, role) VALUES (?1, ?2, ?3, 'owner')").bind(userId, accountId, email),
    ]);
  } catch (err) {
    // Two sign-up links of one address redeemed at once: the other created the user; sign in as it.
    const existing = String(err).includes("UNIQUE") ? await activeUserByEmail(env, email) : null;
    if (existing) return existing;
    throw err;
  }
  return { id: userId, accountId };
}
