import type { Env } from "../env";
import { flushOutbox } from "./outbox";

// The one way the service sends e-mail. Every message is written to the
// outbox first (D1, outbox_emails), then the outbox is flushed through the
// `EMAIL` send_email binding (outbox.ts). Without a sender the message waits
// in the outbox, where the operator API and, in development, GET /dev/mailbox
// (routes/dev-mailbox.ts) show it. Callers never talk to the binding.

export type MailTemplate = "magic_link" | "signup_link" | "team_invitation" | "webhook_disabled";

export interface Mail {
  /** The account the mail is about; "" before an account exists (a sign-up link). */
  accountId: string;
  to: string;
  template: MailTemplate;
  subject: string;
  body: string;
}

/** Writes the mails to the outbox in one batch, then sends what is unsent. */
export async function sendMail(env: Env, mails: readonly Mail[]): Promise<void> {
  if (mails.length === 0) return;
  await env.DB.batch(
    mails.map((m) =>
      env.DB.prepare("INSERT INTO outbox_emails (account_id, to_email, template, subject, body) VALUES (?1, ?2, ?3, ?4, ?5)").bind(
        m.accountId,
        m.to,
        m.template,
        m.subject,
        m.body,
      ),
    ),
  );
  await flushOutbox(env);
}

/** Active owners of an account, the recipients of account alerts. */
export async function ownerEmails(env: Env, accountId: string): Promise<string[]> {
  const rows = await env.DB.prepare("SELECT email FROM users WHERE account_id = ?1 AND role = 'owner' AND removed_at IS NULL ORDER BY created_at, id")
    .bind(accountId)
    .all<{ email: string }>();
  return rows.results.map((r) => r.email);
}
