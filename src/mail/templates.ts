import type { Mail, MailTemplate } from "./mailer";

// The text of every e-mail, in one file. Links to the console carry their
// credential in the URL fragment (#...), which browsers never send to a
// server, so it stays out of access logs, proxies and Referer headers; the
// console page reads it and POSTs it.

const SIGN_IN_MINUTES = 15;

export function magicLinkMail(origin: string, to: string, accountId: string, token: string): Mail {
  return {
    accountId,
    to,
    template: "magic_link",
    subject: "Your sign-in link",
    body:
      `Sign in to the console with this link:\n\n${origin}/console/sign-in#token=${token}\n\n` +
      `It works once, within ${SIGN_IN_MINUTES} minutes. If you did not ask for it, ignore this e-mail: nobody can sign in without the link.`,
  };
}

export function signupLinkMail(origin: string, to: string, token: string): Mail {
  return {
    accountId: "",
    to,
    template: "signup_link",
    subject: "Create your account",
    body:
      `Follow this link to create your account (free plan) and sign in:\n\n${origin}/console/sign-in#token=${token}\n\n` +
      `It works once, within ${SIGN_IN_MINUTES} minutes. If you did not ask for it, ignore this e-mail: no account is created without the link.`,
  };
}

export function invitationMail(origin: string, to: string, accountId: string, role: string, token: string, expiresAt: string): Mail {
  return {
    accountId,
    to,
    template: "team_invitation",
    subject: "You are invited to a team",
    body:
      `You are invited to join a team as ${role}. Accept the invitation with this link:\n\n${origin}/console/invite#invite_token=${token}\n\n` +
      `The invitation expires at ${expiresAt}. Afterwards, sign in at ${origin}/console/sign-in with this e-mail address.`,
  };
}

export function webhookDisabledMail(to: string, accountId: string, endpointId: string, url: string, failures: number): Mail {
  return {
    accountId,
    to,
    template: "webhook_disabled",
    subject: "A webhook endpoint was disabled",
    body:
      `Your webhook endpoint ${endpointId} (${url}) failed ${failures} deliveries in a row and has been disabled.\n` +
      `Fix the receiver, then re-enable it with PATCH /api/v1/webhooks/${endpointId} {"active": true}; ` +
      `dead deliveries can be re-sent from its delivery log.`,
  };
}

/** Every absolute http(s) URL of a body, in order (the dev mailbox makes them clickable). */
export function linksIn(body: string): string[] {
  return body.match(/https?:\/\/[^\s<>"']+/g) ?? [];
}

/** Templates whose body carries a credential: redacted in the outbox once sent (outbox.ts). */
export const SECRET_TEMPLATES: readonly string[] = ["magic_link", "signup_link", "team_invitation"] satisfies MailTemplate[];

/** A sent credential-bearing body, with the credential in each link's fragment blanked. */
export function redactSecrets(body: string): string {
  return body.replace(/#(token|invite_token)=[A-Za-z0-9_-]+/g, "#$1=[redacted after sending]");
}
