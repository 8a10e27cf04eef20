import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { buildApp } from "../../../src/app";
import type { Env } from "../../../src/env";
import type { MailboxMessage } from "../../../src/routes/dev-mailbox";
import { BASE, call, freshIp, postJson } from "../../support/http";
import type { Answer } from "../../support/answers";

// Console sign-in as a browser does it: ask for a link, read it from the
// development mailbox (GET /dev/mailbox.json), redeem its fragment's token,
// then send the cookie (and, for changes, the CSRF token and Origin).

export const ORIGIN = BASE;

export async function mailbox(to?: string): Promise<MailboxMessage[]> {
  const res = await call(`/dev/mailbox.json${to ? `?to=${encodeURIComponent(to)}` : ""}`);
  expect(res.status).toBe(200);
  return (await res.json()) as MailboxMessage[];
}

export async function messagesTo(email: string): Promise<MailboxMessage[]> {
  const mine = await mailbox(email);
  expect(mine.every((m) => m.to === email)).toBe(true);
  return mine;
}

const app = buildApp();

/**
 * Asks for a link and waits for the work the Worker does after answering
 * (the lookup and the mail run in waitUntil, so the answer's timing says
 * nothing), as the Worker's fetch would, with the environment's overrides.
 */
export async function requestLink(email: string, ip = freshIp(), overrides: Partial<Record<keyof Env | "SIGNUP", string>> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const req = new Request(`${BASE}/api/v1/auth/magic-link`, {
    method: "POST",
    body: JSON.stringify({ email }),
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
  });
  const res = await app.fetch(req, { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The token of the newest sign-in link mailed to `email`. */
export async function latestToken(email: string): Promise<string> {
  const [newest] = await messagesTo(email);
  expect(newest, `a mail to ${email}`).toBeDefined();
  const link = newest.links.find((l) => l.includes("#token="));
  expect(link).toBeDefined();
  return new URL(link as string).hash.slice("#token=".length);
}

export async function redeem(token: string, headers: Record<string, string> = { Origin: ORIGIN }): Promise<Response> {
  return postJson("/api/v1/auth/session", { token }, headers);
}

export interface SignedIn {
  cookie: string;
  csrf: string;
  jwt: string;
  body: SessionBody;
  setCookie: string;
}

export type SessionBody = Answer<"createSession">;

/** `__Host-session=<jwt>` out of a Set-Cookie header. */
export function cookieOf(setCookie: string | null): string {
  const m = /^(__Host-session=([^;]*))/.exec(setCookie ?? "");
  expect(m, `a session cookie in ${setCookie}`).not.toBeNull();
  return (m as RegExpExecArray)[1];
}

export async function signIn(email: string): Promise<SignedIn> {
  expect((await requestLink(email)).status).toBe(202);
  const res = await redeem(await latestToken(email));
  expect(res.status, await res.clone().text()).toBe(200);
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  const cookie = cookieOf(setCookie);
  const body = (await res.json()) as SessionBody;
  return { cookie, csrf: body.csrf_token as string, jwt: cookie.slice("__Host-session=".length), body, setCookie };
}

/** What a same-origin console page sends with a change. */
export const consoleHeaders = (s: SignedIn): Record<string, string> => ({ Cookie: s.cookie, "X-CSRF-Token": s.csrf, Origin: ORIGIN });

export async function ownerEmail(accountId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT email FROM users WHERE account_id = ? AND role = 'owner'").bind(accountId).first<{ email: string }>();
  return (row as { email: string }).email;
}
