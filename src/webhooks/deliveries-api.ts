import { Hono } from "hono";
import { ApiError } from "../errors";
import { principalOf, type AppEnv } from "../http/context";
import { requireTeamPermission } from "../http/guards";
import { parseWith } from "../tools/validate";
import { TEST_EVENT } from "./catalog";
import { enqueueDeliveries } from "./enqueue";
import { deliveryMessage, newEnvelope } from "./messages";
import { findEndpoint } from "./store";
import { endpointStub } from "./stubs";
import { decodeCursor, deliveriesQuerySchema, encodeCursor } from "./validate";

// Test deliveries, the delivery log and manual redelivery of one endpoint
// (api.md, Webhook management; decisions.md, Webhooks).

export const deliveriesApi = new Hono<AppEnv>()
  .post("/:id/test", async (c) => {
    const user = requireTeamPermission(await principalOf(c), "manage_webhooks");
    const row = await findEndpoint(c.env, user.accountId, c.req.param("id"));
    if (!row.active) throw new ApiError("webhook_inactive", 'The endpoint is inactive; re-enable it with PATCH {"active": true} first.');
    const envelope = newEnvelope(TEST_EVENT, { endpoint_id: row.id, message: "Test delivery from the Document Processing API." });
    const message = deliveryMessage({ id: row.id, accountId: row.accountId }, envelope);
    await enqueueDeliveries(c.env, [message]);
    return c.json({ delivery_id: message.delivery_id, event: TEST_EVENT, event_id: envelope.event_id, status: "pending" }, 202);
  })
  .get("/:id/deliveries", async (c) => {
    const user = requireTeamPermission(await principalOf(c), "manage_webhooks");
    const row = await findEndpoint(c.env, user.accountId, c.req.param("id"));
    const query = parseWith(deliveriesQuerySchema, c.req.query());
    const page = await endpointStub(c.env, row.id).list(query.limit, decodeCursor(query.cursor));
    return c.json({ data: page.data, next_cursor: page.nextSeq === null ? null : encodeCursor(page.nextSeq) });
  })
  .get("/:id/deliveries/:deliveryId", async (c) => {
    const user = requireTeamPermission(await principalOf(c), "manage_webhooks");
    const row = await findEndpoint(c.env, user.accountId, c.req.param("id"));
    const delivery = await endpointStub(c.env, row.id).delivery(c.req.param("deliveryId"));
    if (!delivery) throw new ApiError("not_found", "No such delivery for this endpoint.");
    return c.json(delivery);
  })
  .post("/:id/deliveries/:deliveryId/redeliver", async (c) => {
    const user = requireTeamPermission(await principalOf(c), "manage_webhooks");
    const row = await findEndpoint(c.env, user.accountId, c.req.param("id"));
    if (!row.active) throw new ApiError("webhook_inactive", 'The endpoint is inactive; re-enable it with PATCH {"active": true} first.');
    const result = await endpointStub(c.env, row.id).redeliver(c.req.param("deliveryId"));
    if (!result.ok && result.reason === "not_found") throw new ApiError("not_found", "No such delivery for this endpoint.");
    if (!result.ok) {
      throw new ApiError("delivery_not_redeliverable", "Only a dead delivery, or a pending one whose last attempt failed, can be redelivered.");
    }
    // The object already holds the delivery as pending with a lease: if this
    // enqueue were lost, its alarm would still send it.
    await enqueueDeliveries(c.env, [result.message]);
    return c.json(result.delivery, 202);
  });
