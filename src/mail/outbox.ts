import { and, asc, desc, gte, isNotNull, isNull, lt, eq } from "drizzle-orm";
import { database, schema } from "../db/client";
import type { Env } from "../env";
import { settingsOf } from "../settings";
import { redactSecrets, SECRET_TEMPLATES } from "./templates";

// The outbox is where every e-mail the service writes goes first (the
// webhook-disabled alert among them: docs/reference/webhooks.md, Delivery);
// this module sends it. Writing a
// row and sending it are separate steps, so an alert is never lost to a mail
// outage: the row stays unsent and is tried again by the next flush (right
// after a new row is written, and by the cron trigger in wrangler.toml).
//
// The sender is Cloudflare Email Service through the `EMAIL` send_email
// binding, from MAIL_FROM. Locally `wrangler dev` and the tests get the same
// binding from miniflare, which keeps what it "sends". A deployment without
// the binding or without MAIL_FROM sends nothing: mail stays readable in the
// outbox (GET /admin/v1/outbox), the stand-in until a sender is configured.

/** A row is given up on after this many failed sends (it stays listed, with its last error). */
export const MAX_SEND_ATTEMPTS = 5;
/** At most this many rows per flush, so one run stays short. */
const FLUSH_BATCH = 25;

export interface OutboxFlush {
  sent: number;
  failed: number;
  /** Why nothing was tried, when no sender is configured. */
  skipped?: "no_sender";
}

/** Sends unsent outbox rows (oldest first). Never throws: mail is bookkeeping, not the caller's work. */
export async function flushOutbox(env: Env): Promise<OutboxFlush> {
  const { MAIL_FROM: from, DEV_MAILBOX: devMailbox } = settingsOf(env);
  if (!env.EMAIL || !from) return { sent: 0, failed: 0, skipped: "no_sender" };
  const db = database(env.DB);
  const t = schema.outboxEmails;
  const rows = await db
    .select()
    .from(t)
    .where(and(isNull(t.sentAt), lt(t.attempts, MAX_SEND_ATTEMPTS)))
    .orderBy(asc(t.id))
    .limit(FLUSH_BATCH);
  const outcome: OutboxFlush = { sent: 0, failed: 0 };
  for (const row of rows) {
    try {
      const result = await env.EMAIL.send({ from, to: row.toEmail, subject: row.subject, text: row.body });
      // A sign-in or invitation link is a credential: once delivered, the outbox keeps no usable copy
      // (the development mailbox, which shows sent mail, is the exception).
      const body = SECRET_TEMPLATES.includes(row.template) && !devMailbox ? redactSecrets(row.body) : row.body;
      // The sent_at guard makes a concurrent flush that sent the same row first win; nothing is recorded twice.
      await db
        .update(t)
        .set({ sentAt: new Date().toISOString(), messageId: result.messageId, attempts: row.attempts + 1, lastError: null, body })
        .where(and(eq(t.id, row.id), isNull(t.sentAt)));
      outcome.sent++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      console.error("mail: send failed", { id: row.id, template: row.template, error: message });
      await db
        .update(t)
        .set({ attempts: row.attempts + 1, lastError: message.slice(0, 500) })
        .where(eq(t.id, row.id));
      outcome.failed++;
    }
  }
  return outcome;
}

export type OutboxStatus = "unsent" | "sent" | "failed" | "all";

/** The operator's view of the outbox, newest first. */
export async function listOutbox(env: Env, status: OutboxStatus, limit: number, to?: string) {
  const t = schema.outboxEmails;
  const byStatus = {
    unsent: and(isNull(t.sentAt), lt(t.attempts, MAX_SEND_ATTEMPTS)),
    sent: isNotNull(t.sentAt),
    failed: and(isNull(t.sentAt), gte(t.attempts, MAX_SEND_ATTEMPTS)),
    all: undefined,
  }[status];
  const where = to === undefined ? byStatus : and(byStatus, eq(t.toEmail, to));
  const rows = await database(env.DB).select().from(t).where(where).orderBy(desc(t.id)).limit(limit);
  return rows.map((r) => ({
    id: r.id,
    account_id: r.accountId,
    to: r.toEmail,
    template: r.template,
    subject: r.subject,
    body: r.body,
    created_at: r.createdAt,
    sent_at: r.sentAt,
    message_id: r.messageId,
    attempts: r.attempts,
    last_error: r.lastError,
  }));
}
