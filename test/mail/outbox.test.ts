import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { flushOutbox, MAX_SEND_ATTEMPTS } from "../../src/mail/outbox";
import { ADMIN_TOKEN, call, problem } from "../support/http";

// Issue #15: the outbox is not write-only any more. Rows are sent through a
// real send_email binding (miniflare's), failures are kept and retried, and
// the operator can read the outbox. The binding EMAIL_ONLY_OPS refuses every
// recipient but ops@docapi.test, which gives a real failing send.

const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
const onlyOps: Env = { ...env, EMAIL: env.EMAIL_ONLY_OPS };

async function writeMail(to: string, subject: string): Promise<number> {
  const row = await env.DB.prepare(
    "INSERT INTO outbox_emails (account_id, to_email, template, subject, body) VALUES ('acc_mail', ?, 'test', ?, 'Hello.') RETURNING id",
  )
    .bind(to, subject)
    .first<{ id: number }>();
  return row!.id;
}

interface OutboxEntry {
  id: number;
  to: string;
  subject: string;
  sent_at: string | null;
  message_id: string | null;
  attempts: number;
  last_error: string | null;
}

async function outbox(status: string): Promise<OutboxEntry[]> {
  const res = await call(`/admin/v1/outbox?status=${status}&limit=100`, { headers: admin });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: OutboxEntry[] }).data;
}

describe("the e-mail outbox", () => {
  it("sends what it can, keeps what failed with its error, and gives up after the last attempt", async () => {
    const ok = await writeMail("ops@docapi.test", "to ops");
    const refused = await writeMail("owner@customer.test", "to owner");

    expect(await flushOutbox(onlyOps)).toEqual({ sent: 1, failed: 1 });
    const sent = (await outbox("sent")).find((m) => m.id === ok)!;
    expect(sent).toMatchObject({ to: "ops@docapi.test", attempts: 1, last_error: null });
    expect(sent.sent_at).not.toBeNull();
    expect(sent.message_id).toMatch(/@/);
    const waiting = (await outbox("unsent")).find((m) => m.id === refused)!;
    expect(waiting).toMatchObject({ sent_at: null, attempts: 1 });
    expect(waiting.last_error).toMatch(/not allowed/);

    // A sent row is never sent again; the failing one is retried until the limit.
    for (let i = 1; i < MAX_SEND_ATTEMPTS; i++) expect(await flushOutbox(onlyOps)).toEqual({ sent: 0, failed: 1 });
    expect(await flushOutbox(onlyOps)).toEqual({ sent: 0, failed: 0 });
    expect((await outbox("failed")).find((m) => m.id === refused)).toMatchObject({ attempts: MAX_SEND_ATTEMPTS, sent_at: null });
    expect((await outbox("unsent")).some((m) => m.id === refused)).toBe(false);
  });

  it("without a sender the mail waits in the outbox, and the operator can flush it once one is there", async () => {
    const id = await writeMail("someone@customer.test", "waiting");
    expect(await flushOutbox({ ...env, MAIL_FROM: "" })).toEqual({ sent: 0, failed: 0, skipped: "no_sender" });
    expect(await flushOutbox({ ...env, EMAIL: undefined })).toEqual({ sent: 0, failed: 0, skipped: "no_sender" });
    expect((await outbox("unsent")).some((m) => m.id === id)).toBe(true);

    const res = await call("/admin/v1/outbox/flush", { method: "POST", headers: admin });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sent: number }).sent).toBeGreaterThanOrEqual(1);
    expect((await outbox("sent")).find((m) => m.id === id)?.sent_at).not.toBeNull();
  });

  it("is the operator's to read: a bad filter is a 422, no token a 401", async () => {
    const bad = await call("/admin/v1/outbox?status=bogus", { headers: admin });
    expect(bad.status).toBe(422);
    expect((await problem(bad)).code).toBe("validation_failed");
    expect((await call("/admin/v1/outbox?limit=0", { headers: admin })).status).toBe(422);
    expect((await call("/admin/v1/outbox")).status).toBe(401);
  });
});
