import { and, eq } from "drizzle-orm";
import { accountScope, idempotent } from "../http/idempotency";
import { Hono } from "hono";
import { database, schema } from "../db/client";
import { ApiError } from "../errors";
import { principalOf, type AppContext, type AppEnv } from "../http/context";
import { jsonBody, requireTeamPermission } from "../http/guards";
import { EVENT_CATALOG, eventsForPlan } from "./catalog";
import { deliveriesApi } from "./deliveries-api";
import { endpointView } from "./present";
import { sealSecret } from "./secret-box";
import { generateSecret } from "./signing";
import { findEndpoint, listEndpoints, newEndpointId } from "./store";
import { endpointStub } from "./stubs";
import { createEndpointSchema, requireEventsAllowed, requireSafeUrl, updateEndpointSchema } from "./validate";

// Webhook endpoint management (api.md, Webhook management): organisation-
// scoped, dashboard JWT of a member with `manage_webhooks` (rule 9).

/** Keeps emit fan-out bounded: one event never becomes more than this many deliveries. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 25;
/** decisions.md: the previous secret stays valid this long after rotate-secret. */
export const ROTATION_WINDOW_MS = 24 * 3600 * 1000;

/** api.md writes the collection as /api/v1/webhooks/; Hono is strict about the slash, so both spellings route. */
const COLLECTION = ["/", "/:slash{^$}"];

async function webhookManager(c: AppContext) {
  return requireTeamPermission(await principalOf(c), "manage_webhooks");
}

export const webhooksApi = new Hono<AppEnv>()
  .get("/event-types", async (c) => {
    const user = await webhookManager(c);
    const data = eventsForPlan(user.plan).map((event) => ({ event, ...EVENT_CATALOG[event] }));
    return c.json({ plan: user.plan, data });
  })
  .on("GET", COLLECTION, async (c) => {
    const user = await webhookManager(c);
    return c.json({ data: (await listEndpoints(c.env, user.accountId)).map((r) => endpointView(r)) });
  })
  .on("POST", COLLECTION, idempotent(accountScope), async (c) => {
    const user = await webhookManager(c);
    const body = await jsonBody(c, createEndpointSchema);
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
  })
  .get("/:id", async (c) => {
    const user = await webhookManager(c);
    return c.json(endpointView(await findEndpoint(c.env, user.accountId, c.req.param("id"))));
  })
  .patch("/:id", async (c) => {
    const user = await webhookManager(c);
    const row = await findEndpoint(c.env, user.accountId, c.req.param("id"));
    const body = await jsonBody(c, updateEndpointSchema);
    const set: Partial<typeof schema.webhookEndpoints.$inferInsert> = { updatedAt: new Date().toISOString() };
    if (body.events !== undefined) {
      requireEventsAllowed(user.plan, body.events);
      set.events = JSON.stringify(body.events);
    }
    if (body.url !== undefined) set.url = await requireSafeUrl(c.env, body.url);
    if (body.description !== undefined) set.description = body.description;
    if (body.active === true) {
      // decisions.md: re-enabling resets the failure count.
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
  })
  .delete("/:id", async (c) => {
    const user = await webhookManager(c);
    const row = await findEndpoint(c.env, user.accountId, c.req.param("id"));
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
  })
  .post("/:id/rotate-secret", async (c) => {
    const user = await webhookManager(c);
    const row = await findEndpoint(c.env, user.accountId, c.req.param("id"));
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
  })
  .route("/", deliveriesApi);
