import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts, users } from "./core";

// Console sign-in; migrations/0006_console_sessions.sql creates these.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** E-mailed sign-in links: single use, 15 minutes (auth/magic-link.ts). */
export const magicLinks = sqliteTable(
  "magic_links",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the token; the token itself only ever travels in the e-mail. */
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    /** Null when the address had no user (SIGNUP=open): redeeming creates the account. */
    userId: text("user_id"),
    requestedIp: text("requested_ip"),
    createdAt: text("created_at").notNull().default(now),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [uniqueIndex("magic_links_token").on(t.tokenHash), index("magic_links_email").on(t.email, t.createdAt)],
);

/** Console sessions, the `sid` of a session JWT (auth/sessions.ts). */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    createdAt: text("created_at").notNull().default(now),
    /** Idle expiry, pushed forward on use up to absoluteExpiresAt. */
    expiresAt: text("expires_at").notNull(),
    absoluteExpiresAt: text("absolute_expires_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    revokedAt: text("revoked_at"),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user").on(t.userId)],
);
