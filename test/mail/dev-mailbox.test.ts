import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { createAccount, uniqueEmail } from "../support/accounts";
import { ADMIN_TOKEN, call, postJson, problem, withToken } from "../support/http";
import { latestToken, mailbox, redeem, requestLink } from "../auth/console/support";

// Issue #17: the development mailbox (GET /dev/mailbox, /dev/mailbox.json)
// shows the outbox with clickable links, only with DEV_MAILBOX=true; the
// mailer is the one path of every e-mail (sign-in links, invitations, alerts).

const app = buildApp();
const withoutMailbox = (path: string, value?: string) =>
  app.fetch(new Request(`http://api.test${path}`), { ...env, DEV_MAILBOX: value } as typeof env, createExecutionContext());

async function writeMail(to: string, subject: string, body: string): Promise<void> {
  await env.DB.prepare("INSERT INTO outbox_emails (account_id, to_email, template, subject, body) VALUES ('acc_mailbox', ?, 'test', ?, ?)")
    .bind(to, subject, body)
    .run();
}

describe("GET /dev/mailbox", () => {
  it.each([
    ["unset", undefined],
    ["false", "false"],
  ])("is the ordinary 404 when DEV_MAILBOX is %s", async (_label, value) => {
    for (const path of ["/dev/mailbox", "/dev/mailbox.json"]) {
      const res = await withoutMailbox(path, value);
      expect(res.status, path).toBe(404);
      expect((await problem(res)).code).toBe("not_found");
    }
  });

  it("lists messages newest first with their links, as JSON", async () => {
    const to = uniqueEmail("box");
    await writeMail(to, "first", "Go to https://example.test/a?x=1 now.");
    await writeMail(to, "second", "Two links: http://127.0.0.1:8787/console/sign-in#token=abc and https://example.test/b.");
    const list = await mailbox(to);
    expect(list.map((m) => m.subject)).toEqual(["second", "first"]);
    expect(list[0].links).toEqual(["http://127.0.0.1:8787/console/sign-in#token=abc", "https://example.test/b."]);
    expect(list[1]).toMatchObject({ to, links: ["https://example.test/a?x=1"], template: "test" });
    expect(typeof list[0].id).toBe("number");
    expect(list[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("renders every string as text under a strict Content-Security-Policy, links as <a>", async () => {
    const to = uniqueEmail("xss");
    await writeMail(to, `<img src=x onerror=alert(1)>`, `Hi "there" & <script>alert(2)</script> https://example.test/ok`);
    const res = await call(`/dev/mailbox?to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await res.text();
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).toContain('<a href="https://example.test/ok">https://example.test/ok</a>');
  });
});

describe("the mailer", () => {
  it("e-mails a team invitation with a console link holding the token, which accepts it", async () => {
    const owner = await createAccount();
    const email = uniqueEmail("invitee");
    const res = await postJson("/api/v1/team/invitations", { email, role: "admin" }, withToken(owner.token));
    expect(res.status).toBe(201);
    // The inviter's answer never holds the token: only the invitee's mail does (issue #31).
    expect(await res.json()).not.toHaveProperty("invite_token");
    const [mail] = await mailbox(email);
    expect(mail).toMatchObject({ template: "team_invitation", subject: "You are invited to a team" });
    const link = new URL(mail.links[0]);
    expect(link.pathname).toBe("/console/invite");
    const token = new URLSearchParams(link.hash.slice(1)).get("invite_token");
    expect(token).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
    const accepted = await postJson("/api/v1/team/invitations/accept", { invite_token: token });
    expect(accepted.status).toBe(200);
    // The new member signs in by e-mail like anyone else.
    await requestLink(email);
    const session = await redeem(await latestToken(email));
    expect(await session.json()).toMatchObject({ user: { email, role: "admin" }, account: { id: owner.accountId } });
  });

  it("sends through the EMAIL binding and keeps no usable link in the outbox once sent (outside the dev mailbox)", async () => {
    const owner = await createAccount();
    const email = (await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(owner.ownerId).first<{ email: string }>())?.email as string;
    // Production-like: no development mailbox. The send finishes after the answer (waitUntil).
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request("http://api.test/api/v1/auth/magic-link", {
        method: "POST",
        body: JSON.stringify({ email }),
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "203.0.113.77" },
      }),
      { ...env, DEV_MAILBOX: "false" } as typeof env,
      ctx,
    );
    expect(res.status).toBe(202);
    await waitOnExecutionContext(ctx);
    const admin = await call("/admin/v1/outbox?status=all&limit=100", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    const rows = ((await admin.json()) as { data: { to: string; template: string; body: string; sent_at: string | null; message_id: string | null }[] }).data;
    const mine = rows.filter((r) => r.to === email);
    expect(mine).toHaveLength(1);
    expect(mine[0].template).toBe("magic_link");
    expect(mine[0].sent_at).not.toBeNull();
    expect(mine[0].message_id).toMatch(/@/);
    expect(mine[0].body).toContain("/console/sign-in#token=[redacted after sending]");
    expect(mine[0].body).not.toMatch(/#token=[A-Za-z0-9_-]{43}/);
  });
});
