import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context";
import { listOutbox } from "../mail/outbox";
import { linksIn } from "../mail/templates";
import { settingsOf } from "../settings";
import { settledCache } from "../runtime/settled-cache";

// GET /dev/mailbox and /dev/mailbox.json: the outbox as a development
// mailbox, so sign-in links can be followed without a mail server. Only with
// DEV_MAILBOX=true (npm run dev, the e2e server, the tests); otherwise the
// path falls through to the ordinary 404. Mounted as middleware, not as a
// declared route, so it stays out of /openapi.json and the typed client:
// it is a development tool, not part of the API. `?to=<address>` keeps
// one recipient's messages.

const LIMIT = 100;
const STYLE = "body{font:14px/1.4 system-ui,sans-serif;margin:2rem;max-width:60rem}article{border-top:1px solid #ccc;padding:.5rem 0}pre{white-space:pre-wrap}";

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] as string);

const styleHash = settledCache<string>();
const sha256 = async (text: string) => btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))));
function cspOf(): Promise<string> {
  return styleHash(STYLE, () => sha256(STYLE)).then(
    (h) => `default-src 'none'; style-src 'sha256-${h}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  );
}

export interface MailboxMessage {
  id: number;
  to: string;
  subject: string;
  template: string;
  body: string;
  links: string[];
  created_at: string;
}

function page(messages: MailboxMessage[]): string {
  const items = messages.map(
    (m) =>
      `<article><h2>${escapeHtml(m.subject)}</h2><p>To ${escapeHtml(m.to)}, ${escapeHtml(m.created_at)}</p>` +
      `<pre>${escapeHtml(m.body)}</pre><ul>${m.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join("")}</ul></article>`,
  );
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development mailbox</title><style>${STYLE}</style></head>` +
    `<body><main><h1>Development mailbox</h1><p>The latest ${LIMIT} messages of the outbox, newest first.</p>` +
    `${items.join("") || "<p>No messages.</p>"}</main></body></html>`
  );
}

export const devMailbox: MiddlewareHandler<AppEnv> = async (c, next) => {
  const path = new URL(c.req.url).pathname;
  if (c.req.method !== "GET" || (path !== "/dev/mailbox" && path !== "/dev/mailbox.json") || !settingsOf(c.env).DEV_MAILBOX) return next();
  const to = c.req.query("to")?.trim().toLowerCase() || undefined;
  const messages: MailboxMessage[] = (await listOutbox(c.env, "all", LIMIT, to)).map((m) => ({
    id: m.id,
    to: m.to,
    subject: m.subject,
    template: m.template,
    body: m.body,
    links: linksIn(m.body),
    created_at: m.created_at,
  }));
  c.header("Cache-Control", "no-store");
  c.header("X-Content-Type-Options", "nosniff");
  if (path.endsWith(".json")) return c.json(messages);
  c.header("Content-Security-Policy", await cspOf());
  return c.html(page(messages));
};
