import { expect } from "vitest";
import type { MailboxMessage } from "../../src/routes/dev-mailbox";
import { call } from "../support/http";

// The invitee's side of an invitation: its token comes by e-mail only, read
// here from the development mailbox (GET /dev/mailbox.json, DEV_MAILBOX=true
// in vitest.config.ts) as the invitee would read their mail.

/** Every mail to `email`, newest first. */
export async function mailTo(email: string): Promise<MailboxMessage[]> {
  const res = await call(`/dev/mailbox.json?to=${encodeURIComponent(email)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as MailboxMessage[];
}

/** The token of the newest invitation mailed to `email`, out of its console link's fragment. */
export async function mailedInviteToken(email: string): Promise<string> {
  const invitation = (await mailTo(email)).find((m) => m.template === "team_invitation");
  expect(invitation, `an invitation mailed to ${email}`).toBeDefined();
  const link = (invitation as MailboxMessage).links.find((l) => l.includes("#invite_token="));
  expect(link, "a console link with the token").toBeDefined();
  const token = new URLSearchParams(new URL(link as string).hash.slice(1)).get("invite_token");
  expect(token).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
  return token as string;
}
