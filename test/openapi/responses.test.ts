import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { jsonSchema } from "../../src/http/route-openapi";
import { ROUTES } from "../../src/routes/registry";
import { mailedInviteToken } from "../accounts/support";
import { createAccount, createKey } from "../support/accounts";
import { ADMIN_TOKEN, call, postJson, problem, withKey, withToken } from "../support/http";
import { installNetwork, receiver } from "../webhooks/support/network";
import { type Json, undeclared } from "./support";

// Real answers checked against the schemas their routes declare: every field
// the schema requires is there with its type (zod parses the body), and no
// field is answered that the schema does not declare. A generated client
// built from /openapi.json therefore reads every answer in full.

// Webhook URLs go to the webhook suite's test receivers, never the network.
beforeAll(installNetwork);

const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

function declared(id: string, status: number): z.ZodType {
  const route = ROUTES.find((r) => r.id === id);
  const schema = route?.responses[status]?.schema;
  if (!schema) throw new Error(`${id} declares no ${status} schema`);
  return schema;
}

async function conforms(res: Response, id: string, status: number): Promise<unknown> {
  expect(res.status, id).toBe(status);
  const body = await res.json();
  const schema = declared(id, status);
  const parsed = schema.safeParse(body);
  expect(parsed.success ? [] : parsed.error.issues, id).toEqual([]);
  expect(undeclared(jsonSchema(schema, "output") as Json, body), id).toEqual([]);
  return body;
}

describe("answers match their declared schemas", () => {
  it("the check itself finds an undeclared field, also inside arrays", () => {
    const schema = { type: "object", properties: { data: { type: "array", items: { type: "object", properties: { id: {} } } } } };
    expect(undeclared(schema, { data: [{ id: 1 }, { id: 2, secret: "x" }], extra: true })).toEqual(["$.data[1].secret", "$.extra"]);
  });

  it("account, keys and their catalogues", async () => {
    const acc = await createAccount({ credits: 50 });
    const jwt = withToken(acc.token);
    await conforms(await call("/api/v1/account", { headers: jwt }), "getAccount", 200);
    await conforms(await postJson("/api/v1/keys", { name: "k", scopes: ["pdf.merge"], credit_limit: 10, expires_in_days: 3 }, jwt), "createKey", 201);
    await conforms(await call("/api/v1/keys", { headers: jwt }), "listKeys", 200);
    await conforms(await call("/api/v1/keys/limits", { headers: jwt }), "getKeyLimits", 200);
    await conforms(await call("/api/v1/keys/scopes", { headers: jwt }), "listKeyScopes", 200);
    await conforms(await call("/api/v1/redact/entity-types"), "listRedactEntityTypes", 200);
    await conforms(await call("/"), "getIndex", 200);
  });

  it("the operator API", async () => {
    const email = `schema-${crypto.randomUUID()}@example.test`;
    const created = (await conforms(
      await postJson("/admin/v1/accounts", { name: "Schema", plan: "pro", credits: 5, owner_email: email }, admin),
      "adminCreateAccount",
      201,
    )) as { account: { id: string }; owner: { id: string } };
    const id = created.account.id;
    await conforms(await call(`/admin/v1/accounts/${id}`, { headers: admin }), "adminGetAccount", 200);
    await conforms(await postJson(`/admin/v1/accounts/${id}/credits`, { amount: 3 }, admin), "adminAdjustCredits", 200);
    const payment = { payment_id: `pay_${crypto.randomUUID()}`, amount_cents: 100, credits: 10 };
    await conforms(await postJson(`/admin/v1/accounts/${id}/payments`, payment, admin), "adminRecordPayment", 201);
    await conforms(await postJson(`/admin/v1/accounts/${id}/payments`, payment, admin), "adminRecordPayment", 200);
    await conforms(await postJson(`/admin/v1/accounts/${id}/payment-failures`, { payment_id: "p", amount_cents: 1 }, admin), "adminReportPaymentFailure", 202);
    await conforms(await postJson(`/admin/v1/users/${created.owner.id}/tokens`, { ttl_seconds: 600 }, admin), "adminIssueUserToken", 200);
    await conforms(await call(`/admin/v1/users/${created.owner.id}/tokens`, { method: "POST", headers: admin }), "adminIssueUserToken", 200);
    await conforms(await call("/admin/v1/outbox?status=all&limit=5", { headers: admin }), "adminListOutbox", 200);
    await conforms(await call("/admin/v1/runtime", { headers: admin }), "adminRuntimeReport", 200);
  });

  it("team and webhooks", async () => {
    const acc = await createAccount({ plan: "pro" });
    const jwt = withToken(acc.token);
    await conforms(await call("/api/v1/team/members", { headers: jwt }), "listTeamMembers", 200);
    const email = `m-${crypto.randomUUID()}@example.test`;
    await conforms(await postJson("/api/v1/team/invitations", { email, role: "member" }, jwt), "inviteTeamMember", 201);
    // The token is e-mailed to the invitee only (issue #31).
    const invite_token = await mailedInviteToken(email);
    const joined = (await conforms(await postJson("/api/v1/team/invitations/accept", { invite_token }), "acceptTeamInvitation", 200)) as {
      user: { id: string };
    };
    const patch = await call(`/api/v1/team/members/${joined.user.id}`, {
      method: "PATCH",
      body: JSON.stringify({ role: "admin" }),
      headers: { ...jwt, "Content-Type": "application/json" },
    });
    await conforms(patch, "updateTeamMember", 200);

    await conforms(await call("/api/v1/webhooks/event-types", { headers: jwt }), "listWebhookEventTypes", 200);
    const endpoint = (await conforms(
      await postJson("/api/v1/webhooks", { url: receiver().url, events: ["apikey.created"], description: "d" }, jwt),
      "createWebhookEndpoint",
      201,
    )) as { id: string };
    await conforms(await call("/api/v1/webhooks", { headers: jwt }), "listWebhookEndpoints", 200);
    await conforms(await call(`/api/v1/webhooks/${endpoint.id}`, { headers: jwt }), "getWebhookEndpoint", 200);
    await conforms(await postJson(`/api/v1/webhooks/${endpoint.id}/rotate-secret`, {}, jwt), "rotateWebhookSecret", 200);
    await conforms(await postJson(`/api/v1/webhooks/${endpoint.id}/test`, {}, jwt), "sendWebhookTest", 202);
    await conforms(await call(`/api/v1/webhooks/${endpoint.id}/deliveries?limit=5`, { headers: jwt }), "listWebhookDeliveries", 200);
  });

  it("an API key reads its account; validation of parameters and bodies still answers problem+json", async () => {
    const acc = await createAccount();
    const key = await createKey(acc.token, { permissions: ["read"] });
    await conforms(await call("/api/v1/account", { headers: withKey(key.api_key) }), "getAccount", 200);
    const badQuery = await call("/admin/v1/outbox?limit=0", { headers: admin });
    expect(badQuery.status).toBe(422);
    expect((await problem(badQuery)).errors?.map((e) => e.field)).toEqual(["limit"]);
    const badBody = await postJson("/api/v1/keys", { name: "" }, withToken(acc.token));
    expect((await problem(badBody)).code).toBe("validation_failed");
  });
});
