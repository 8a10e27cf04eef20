import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Team invitations; migrations/0002_webhooks_team.sql creates this table.
// Members themselves are rows of `users` (core.ts).

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export const teamInvitations = sqliteTable(
  "team_invitations",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    email: text("email").notNull(),
    role: text("role").notNull(),
    /** SHA-256 of the invite token; the token itself is shown once. */
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").notNull(),
    createdAt: text("created_at").notNull().default(now),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    acceptedUserId: text("accepted_user_id"),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("team_invitations_token").on(t.tokenHash), index("team_invitations_account_email").on(t.accountId, t.email)],
);
