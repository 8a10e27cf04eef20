import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Webhook tables; migrations/0002_webhooks_team.sql creates exactly these.
// Delivery logs and retry schedules are NOT here: each endpoint's
// WebhookEndpoint Durable Object keeps them (see README, Webhooks).

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    url: text("url").notNull(),
    description: text("description"),
    /** JSON array of event keys. */
    events: text("events").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** AES-GCM sealed signing secret (src/webhooks/secret-box.ts); never the plain secret. */
    secretSealed: text("secret_sealed").notNull(),
    /** The secret before the last rotation, valid until previous_secret_expires_at. */
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** `consecutive_failures` when the endpoint disabled itself; null otherwise. */
    disabledReason: text("disabled_reason"),
    disabledAt: text("disabled_at"),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("webhook_endpoints_account").on(t.accountId, t.active)],
);

/**
 * Every e-mail the service writes (the owner alert of an auto-disabled
 * endpoint among them: docs/reference/webhooks.md), kept after it is sent; src/mail/outbox.ts sends it.
 */
export const outboxEmails = sqliteTable(
  "outbox_emails",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id").notNull(),
    toEmail: text("to_email").notNull(),
    template: text("template").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    createdAt: text("created_at").notNull().default(now),
    sentAt: text("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** The sender's id of the message, set when it went out. */
    messageId: text("message_id"),
  },
  (t) => [index("outbox_emails_unsent").on(t.sentAt, t.id)],
);
