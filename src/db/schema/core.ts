import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Core tables; migrations/0001_core.sql creates exactly these. The account
// balance is NOT here: the AccountMeter Durable Object owns it (see README,
// "Metering"), so there is one source of truth for money.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan").notNull(),
  createdAt: text("created_at").notNull().default(now),
});

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    email: text("email").notNull(),
    role: text("role").notNull(),
    createdAt: text("created_at").notNull().default(now),
    removedAt: text("removed_at"),
  },
  (t) => [index("users_account").on(t.accountId), uniqueIndex("users_email").on(t.email)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    createdBy: text("created_by"),
    name: text("name").notNull(),
    description: text("description"),
    keyPrefix: text("key_prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    /** JSON array of operation keys; [] means full access. */
    scopes: text("scopes").notNull(),
    /** JSON array of read|write|delete|admin. */
    permissions: text("permissions").notNull(),
    creditLimit: integer("credit_limit"),
    createdAt: text("created_at").notNull().default(now),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    /** Last authenticated use, written at most every few minutes (src/auth/key-usage.ts); null if never used. */
    lastUsedAt: text("last_used_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.keyHash), index("api_keys_account").on(t.accountId)],
);

/** Every debit, refund and grant, written after the meter has decided. */
export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id").notNull(),
    kind: text("kind").notNull(), // debit | refund | grant
    credits: integer("credits").notNull(), // signed: debits negative
    balanceAfter: integer("balance_after").notNull(),
    requestId: text("request_id"),
    operation: text("operation"),
    keyId: text("key_id"),
    userId: text("user_id"),
    reason: text("reason"),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("ledger_account").on(t.accountId, t.id), uniqueIndex("ledger_request_kind").on(t.requestId, t.kind)],
);

export const payments = sqliteTable("payments", {
  paymentId: text("payment_id").primaryKey(),
  accountId: text("account_id").notNull(),
  amountCents: integer("amount_cents").notNull(),
  credits: integer("credits").notNull(),
  createdAt: text("created_at").notNull().default(now),
});
