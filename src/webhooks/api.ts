import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { planName } from "../config";
import { database, schema } from "../db/client";
import { ApiError } from "../errors";
import { defineRoute } from "../http/route";
import { EVENT_CATALOG, eventsForPlan } from "./catalog";
import { endpointView } from "./present";
import { sealSecret } from "./secret-box";
import { generateSecret } from "./signing";
import { findEndpoint, listEndpoints, newEndpointId } from "./store";
import { endpointStub } from "./stubs";
import { createEndpointSchema, requireEventsAllowed, requireSafeUrl, updateEndpointSchema } from "./validate";

// Webhook endpoint management (docs/reference/webhooks.md, Endpoints):
// organisation-scoped, dashboard JWT of a member with `manage_webhooks`.

/** Keeps emit fan-out bounded: one event never becomes more than this many deliveries. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 25;
/** The previous secret stays valid this long after rotate-secret (docs/reference/webhooks.md). */
export const ROTATION_WINDOW_MS = 24 * 3600 * 1000;

const tags = ["webhooks"];
const auth = "jwt:manage_webhooks";

export const endpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  active: z.boolean(),
  disabled_reason: z.string().nullable().describe("Why the endpoint was disabled automatically, if it was."),
  disabled_at: z.string().nullable(),
  consecutive_failures: z.number().int(),
  previous_secret_expires_at: z.string().nullable().describe("Until when the secret replaced by the last rotation still signs."),
  created_at: z.string(),
  updated_at: z.string(),
});
const withSecret = endpointSchema.extend({
  secret: z.string().nullable().describe("The signing secret (whsec_...), shown in this answer only; an Idempotency-Key replay answers null."),
});
const endpointParams = z.object({ id: z.string().describe("The endpoint's id.") });

const eventTypes = defineRoute({
  id: "listWebhookEventTypes",
  method: "get",
  path: "/api/v1/webhooks/event-types",
  tags,
  summary: "The events the account's plan may subscribe to",
  auth,
  responses: {
    200: {
      description: "Events with their category, tier and data fields",
      schema: z.object({
        plan: planName,
        data: z.array(
          z.object({
            event: z.string(),
            category: z.enum(["billing", "team", "job", "key"]),
            tier: z.enum(["free", "pro"]),
            description: z.string(),
            data: z.record(z.string(), z.string()).describe("Field name -> type of the event's `data`."),
          }),
        ),
      }),
    },
  },
  handler: (c, { caller }) => c.json({ plan: caller.plan, data: eventsForPlan(caller.plan).map((event) => ({ event, ...EVENT_CATALOG[event] })) }),
});

const list = defineRoute({
  id: "listWebhookEndpoints",
  method: "get",
  path: "/api/v1/webhooks",
  // The original API wrote the collection as /api/v1/webhooks/; Hono is strict about the slash, so both spellings route (docs/reference/webhooks.md).
  aliases: ["/api/v1/webhooks/"],
  tags,
  summary: "List the account's webhook endpoints",
  auth,
  responses: { 200: { description: "Every endpoint", schema: z.object({ data: z.array(endpointSchema) }) } },
  handler: async (c, { caller }) => c.json({ data: (await listEndpoints(c.env, caller.accountId)).map((r) => endpointView(r)) }),
});

const create = defineRoute({
  id: "createWebhookEndpoint",
  method: "post",
  path: "/api/v1/webhooks",
  aliases: ["/api/v1/webhooks/"],
  tags,
  summary: "Create a webhook endpoint",
  description: `The URL is checked against private and reserved addresses (422 unsafe_webhook_url); every event must be in the plan's tiers; at most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints per account.`,
  auth,
  body: createEndpointSchema,
  idempotent: true,
  problems: ["plan_required", "webhook_limit_reached", "unsafe_webhook_url"],
  responses: { 201: { description: "The endpoint with its signing secret", schema: withSecret } },
  handler: async (c, { caller: user, body }) => {
    requireEventsAllowed(user.plan, body.events);
    const url = await requireSafeUrl(c.env, body.url);
    const id = newEndpointId();
    const secret = generateSecret();
    // One conditional INSERT: the cap check and the insert are atomic in D1.
    const result = await c.env.DB.prepare(
      `INSERT INTO webhook_endpoints (id, account_id, url, description, events, active, secret_sealed, created_by)
       SELECT ?1, ?2, ?3, ?4, ?5, 1, ?6, ?7
        WHERE (SELECT COUNT(*) FROM webhook_endpoints WHERE account_id = ?2) < ?8`,
    )
      .bind(
        id,
        user.accountId,
        url,
        body.description ?? null,
        JSON.stringify(body.events),
        await sealSecret(c.env, id, secret),
        user.userId,
        MAX_ENDPOINTS_PER_ACCOUNT,
      )
      .run();
    if (!result.meta.changes) {
      throw new ApiError("webhook_limit_reached", `An account may have ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first.`);
    }
    const row = await findEndpoint(c.env, user.accountId, id);
    return c.json({ ...endpointView(row), secret }, 201);
  },
});

const get = defineRoute({
  id: "getWebhookEndpoint",
  method: "get",
  path: "/api/v1/webhooks/{id}",
  tags,
  summary: "A webhook endpoint",
  auth,
  params: endpointParams,
  problems: ["not_found"],
  responses: { 200: { description: "The endpoint", schema: endpointSchema } },
  handler: async (c, { caller, params }) => c.json(endpointView(await findEndpoint(c.env, caller.accountId, params.id))),
});

const update = defineRoute({
  id: "updateWebhookEndpoint",
  method: "patch",
  path: "/api/v1/webhooks/{id}",
  tags,
  summary: "Change a webhook endpoint",
  description: "Give any of url, events, active, description. Re-enabling (`active: true`) resets the failure count.",
  auth,
  params: endpointParams,
  body: updateEndpointSchema,
  problems: ["not_found", "plan_required", "unsafe_webhook_url"],
  responses: { 200: { description: "The endpoint", schema: endpointSchema } },
  handler: async (c, { caller: user, params, body }) => {
    const row = await findEndpoint(c.env, user.accountId, params.id);
    const set: Partial<typeof schema.webhookEndpoints.$inferInsert> = { updatedAt: new Date().toISOString() };
    if (body.events !== undefined) {
      requireEventsAllowed(user.plan, body.events);
      set.events = JSON.stringify(body.events);
    }
    if (body.url !== undefined) set.url = await requireSafeUrl(c.env, body.url);
    if (body.description !== undefined) set.description = body.description;
    if (body.active === true) {
      // Re-enabling resets the failure count (docs/reference/webhooks.md).
      Object.assign(set, { active: true, consecutiveFailures: 0, disabledReason: null, disabledAt: null });
    } else if (body.active === false) {
      set.active = false;
    }
    const t = schema.webhookEndpoints;
    await database(c.env.DB)
      .update(t)
      .set(set)
      .where(and(eq(t.id, row.id), eq(t.accountId, user.accountId)));
    return c.json(endpointView(await findEndpoint(c.env, user.accountId, row.id)));
  },
});

const remove = defineRoute({
  id: "deleteWebhookEndpoint",
  method: "delete",
  path: "/api/v1/webhooks/{id}",
  tags,
  summary: "Delete a webhook endpoint and its delivery log",
  auth,
  params: endpointParams,
  problems: ["not_found"],
  responses: { 204: { description: "Deleted" } },
  handler: async (c, { caller: user, params }) => {
    const row = await findEndpoint(c.env, user.accountId, params.id);
    const t = schema.webhookEndpoints;
    await database(c.env.DB)
      .delete(t)
      .where(and(eq(t.id, row.id), eq(t.accountId, user.accountId)));
    try {
      await endpointStub(c.env, row.id).purge();
    } catch (err) {
      // Harmless: the object's next alarm finds the endpoint gone and purges itself.
      console.error("webhooks: purge of a deleted endpoint's log failed", row.id, err);
    }
    return c.body(null, 204);
  },
});

const rotate = defineRoute({
  id: "rotateWebhookSecret",
  method: "post",
  path: "/api/v1/webhooks/{id}/rotate-secret",
  tags,
  summary: "Replace the signing secret",
  description: "The previous secret keeps signing (a second signature) for 24 hours, so receivers can switch without losing deliveries.",
  auth,
  params: endpointParams,
  problems: ["not_found"],
  responses: { 200: { description: "The endpoint with its new secret", schema: withSecret } },
  handler: async (c, { caller: user, params }) => {
    const row = await findEndpoint(c.env, user.accountId, params.id);
    const secret = generateSecret();
    const now = Date.now();
    const previousSecretExpiresAt = new Date(now + ROTATION_WINDOW_MS).toISOString();
    const t = schema.webhookEndpoints;
    // The current sealed secret moves to the previous slot unchanged; a secret
    // rotated out earlier is dropped (only one previous secret is kept).
    await database(c.env.DB)
      .update(t)
      .set({
        secretSealed: await sealSecret(c.env, row.id, secret),
        previousSecretSealed: row.secretSealed,
        previousSecretExpiresAt,
        updatedAt: new Date(now).toISOString(),
      })
      .where(and(eq(t.id, row.id), eq(t.accountId, user.accountId)));
    return c.json({ ...endpointView(await findEndpoint(c.env, user.accountId, row.id), now), secret });
  },
});

export const WEBHOOK_ROUTES = [eventTypes, list, create, get, update, remove, rotate];
