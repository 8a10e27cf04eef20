import { z } from "zod";
import { ApiError } from "../errors";
import { defineRoute } from "../http/route";
import { TEST_EVENT } from "./catalog";
import { DELIVERY_STATUSES } from "./delivery-log";
import { enqueueDeliveries } from "./enqueue";
import { deliveryMessage, newEnvelope } from "./messages";
import { findEndpoint } from "./store";
import { endpointStub } from "./stubs";
import { decodeCursor, deliveriesQuerySchema, encodeCursor } from "./validate";

// Test deliveries, the delivery log and manual redelivery of one endpoint
// (docs/reference/webhooks.md, Endpoints).

const tags = ["webhooks"];
const auth = "jwt:manage_webhooks";
const INACTIVE = 'The endpoint is inactive; re-enable it with PATCH {"active": true} first.';

const endpointParams = z.object({ id: z.string().describe("The endpoint's id.") });
const deliveryParams = endpointParams.extend({ deliveryId: z.string().describe("The delivery's id.") });

const deliverySchema = z.object({
  id: z.string(),
  event: z.string(),
  event_id: z.string().describe("Shared by every delivery of one event (fan-out)."),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  redeliveries: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});

// The detail adds what the list leaves out: the payload, the exact body each
// attempt POSTs and signs (the event as subscribers get it, so it holds
// nothing they may not see; signatures and the secret are never stored with
// it), and the outcome of each attempt.
const deliveryDetailSchema = deliverySchema.extend({
  payload: z.string().describe("The JSON body sent (and signed) on every attempt and redelivery, byte for byte: {event, event_id, timestamp, data}."),
  attempt_log: z
    .array(
      z.object({
        round: z.number().int().describe("0 for the first schedule, +1 per manual redelivery (`redeliveries`)."),
        attempt: z.number().int().describe("1-based within its round."),
        sent_at: z.string(),
        status_code: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came (timeout, refused target)."),
        error: z.string().nullable().describe("Why the attempt failed; null on success."),
        duration_ms: z.number().int(),
      }),
    )
    .describe("Every attempt that reported an outcome, oldest first. An attempt still in flight is not listed yet."),
});

const listQuerySchema = deliveriesQuerySchema.extend({
  status: z.enum(DELIVERY_STATUSES).optional().describe("Only deliveries in this state; the cursor of a filtered page continues the same filter."),
});

const sendTest = defineRoute({
  id: "sendWebhookTest",
  method: "post",
  path: "/api/v1/webhooks/{id}/test",
  tags,
  summary: "Queue a webhook.test delivery",
  auth,
  params: endpointParams,
  problems: ["not_found", "webhook_inactive"],
  responses: {
    202: {
      description: "Queued",
      schema: z.object({ delivery_id: z.string(), event: z.literal(TEST_EVENT), event_id: z.string(), status: z.literal("pending") }),
    },
  },
  handler: async (c, { caller, params }) => {
    const row = await findEndpoint(c.env, caller.accountId, params.id);
    if (!row.active) throw new ApiError("webhook_inactive", INACTIVE);
    const envelope = newEnvelope(TEST_EVENT, { endpoint_id: row.id, message: "Test delivery from the Document Processing API." });
    const message = deliveryMessage({ id: row.id, accountId: row.accountId }, envelope);
    await enqueueDeliveries(c.env, [message]);
    return c.json({ delivery_id: message.delivery_id, event: TEST_EVENT, event_id: envelope.event_id, status: "pending" }, 202);
  },
});

const listDeliveries = defineRoute({
  id: "listWebhookDeliveries",
  method: "get",
  path: "/api/v1/webhooks/{id}/deliveries",
  tags,
  summary: "The endpoint's delivery log, newest first",
  auth,
  params: endpointParams,
  query: listQuerySchema,
  problems: ["not_found"],
  responses: {
    200: {
      description: "One page of deliveries",
      schema: z.object({ data: z.array(deliverySchema), next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last.") }),
    },
  },
  handler: async (c, { caller, params, query }) => {
    const row = await findEndpoint(c.env, caller.accountId, params.id);
    const page = await endpointStub(c.env, row.id).list(query.limit, decodeCursor(query.cursor), query.status ?? null);
    return c.json({ data: page.data, next_cursor: page.nextSeq === null ? null : encodeCursor(page.nextSeq) });
  },
});

const getDelivery = defineRoute({
  id: "getWebhookDelivery",
  method: "get",
  path: "/api/v1/webhooks/{id}/deliveries/{deliveryId}",
  tags,
  summary: "One delivery",
  auth,
  params: deliveryParams,
  problems: ["not_found"],
  responses: { 200: { description: "The delivery, with its payload and attempt log", schema: deliveryDetailSchema } },
  handler: async (c, { caller, params }) => {
    const row = await findEndpoint(c.env, caller.accountId, params.id);
    const delivery = await endpointStub(c.env, row.id).delivery(params.deliveryId);
    if (!delivery) throw new ApiError("not_found", "No such delivery for this endpoint.");
    return c.json(delivery);
  },
});

const redeliver = defineRoute({
  id: "redeliverWebhookDelivery",
  method: "post",
  path: "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver",
  tags,
  summary: "Send a dead or failing delivery again",
  auth,
  params: deliveryParams,
  problems: ["not_found", "webhook_inactive", "delivery_not_redeliverable"],
  responses: { 202: { description: "Queued again", schema: deliverySchema } },
  handler: async (c, { caller, params }) => {
    const row = await findEndpoint(c.env, caller.accountId, params.id);
    if (!row.active) throw new ApiError("webhook_inactive", INACTIVE);
    const result = await endpointStub(c.env, row.id).redeliver(params.deliveryId);
    if (!result.ok && result.reason === "not_found") throw new ApiError("not_found", "No such delivery for this endpoint.");
    if (!result.ok) {
      throw new ApiError("delivery_not_redeliverable", "Only a dead delivery, or a pending one whose last attempt failed, can be redelivered.");
    }
    // The object already holds the delivery as pending with a lease: if this
    // enqueue were lost, its alarm would still send it.
    await enqueueDeliveries(c.env, [result.message]);
    return c.json(result.delivery, 202);
  },
});

export const DELIVERY_ROUTES = [sendTest, listDeliveries, getDelivery, redeliver];
