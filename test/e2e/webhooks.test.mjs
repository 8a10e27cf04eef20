// Webhooks through the real bundled `wrangler dev`: a node:http receiver on
// 127.0.0.1 gets invoice.paid through the local queue, consumer and endpoint
// Durable Object, verified with the standardwebhooks package; the SSRF guard
// and the team flow answer as documented.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { startServerWithKey } from "./server.mjs";

let srv;
let receiver;
const received = [];

before(async () => {
  srv = await startServerWithKey({ plan: "pro", credits: 1000, vars: { ALLOW_INSECURE_WEBHOOKS: "true", ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" } });
  receiver = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
});

after(async () => {
  await new Promise((r) => receiver?.close(r) ?? r());
  await srv?.stop();
});

async function api(method, path, body, token = srv.token) {
  const res = await fetch(srv.base + path, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

test("invoice.paid reaches a local receiver, signed so that standardwebhooks verifies it", async () => {
  const url = `http://127.0.0.1:${receiver.address().port}/hook`;
  const created = await api("POST", "/api/v1/webhooks/", { url, events: ["invoice.paid"] });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const pay = await fetch(`${srv.base}/admin/v1/accounts/${srv.accountId}/payments`, {
    method: "POST",
    headers: { Authorization: `Bearer ${srv.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ payment_id: "e2e-pay-1", amount_cents: 4900, credits: 500 }),
  });
  assert.equal(pay.status, 201);

  const deadline = Date.now() + 20_000;
  while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.equal(received.length, 1, "one delivery within 20 s");
  const payload = new Webhook(created.body.secret).verify(received[0].body, received[0].headers);
  assert.deepEqual(payload.data, { payment_id: "e2e-pay-1", amount_cents: 4900, credits: 500 });
  assert.equal(received[0].headers["webhook-id"], payload.event_id);
  assert.equal(received[0].headers["webhook-event"], "invoice.paid");

  const log = await api("GET", `/api/v1/webhooks/${created.body.id}/deliveries`);
  assert.equal(log.status, 200);
  assert.equal(log.body.data[0].status, "delivered");
  assert.equal(log.body.data[0].last_status_code, 204);
});

test("metadata and private targets are refused with 422 unsafe_webhook_url", async () => {
  for (const url of ["http://169.254.169.254/latest/meta-data/", "http://10.1.2.3/hook", "http://[::ffff:127.0.0.1]/"]) {
    const res = await api("POST", "/api/v1/webhooks/", { url, events: ["job.failed"] });
    assert.equal(res.status, 422, url);
    assert.equal(res.body.code, "unsafe_webhook_url");
  }
});

test("team: invite, accept without auth, remove; the removed member's token stops working", async () => {
  const email = `e2e-member-${Date.now().toString(36)}@example.test`;
  const inv = await api("POST", "/api/v1/team/invitations", { email, role: "member" });
  assert.equal(inv.status, 201);
  assert.equal(inv.body.invite_token, undefined, "the token goes to the invitee's mailbox only");
  // The invitee's mail, through the development mailbox (DEV_MAILBOX is on in the e2e server).
  const mails = await (await fetch(`${srv.base}/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json();
  const link = mails.flatMap((m) => m.links).find((l) => l.includes("#invite_token="));
  const invite_token = new URLSearchParams(new URL(link).hash.slice(1)).get("invite_token");
  const acc = await api("POST", "/api/v1/team/invitations/accept", { invite_token }, null);
  assert.equal(acc.status, 200);
  assert.equal((await api("GET", "/api/v1/team/members", null, acc.body.token)).status, 200);
  assert.equal((await api("DELETE", `/api/v1/team/members/${acc.body.user.id}`)).status, 204);
  assert.equal((await api("GET", "/api/v1/team/members", null, acc.body.token)).status, 401);
});
