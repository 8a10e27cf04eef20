import { z } from "zod";

// The one queue message shape (queue "docapi-webhooks"): one delivery of one
// event to one endpoint. It carries the exact payload bytes, so every attempt
// and every redelivery sends the same body and the same event_id.

export const deliveryMessageSchema = z.object({
  v: z.literal(1),
  delivery_id: z.string().min(1),
  endpoint_id: z.string().min(1),
  account_id: z.string().min(1),
  /** 0 for the first schedule; +1 for each manual redelivery. */
  round: z.number().int().min(0),
  event: z.string().min(1),
  event_id: z.string().min(1),
  /** Unix seconds of the event (the payload's `timestamp`). */
  timestamp: z.number().int(),
  /** The raw JSON payload: {event, event_id, timestamp, data}. */
  body: z.string(),
  /** Epoch ms when this message was queued (latency measurement, logs). */
  emitted_at: z.number(),
});

export type DeliveryMessage = z.infer<typeof deliveryMessageSchema>;

export interface Envelope {
  event: string;
  event_id: string;
  timestamp: number;
  body: string;
}

/** A new event: fresh event_id, Unix-seconds timestamp, compact JSON body. */
export function newEnvelope(event: string, data: Record<string, unknown>, now: number = Date.now()): Envelope {
  const event_id = crypto.randomUUID();
  const timestamp = Math.floor(now / 1000);
  return { event, event_id, timestamp, body: JSON.stringify({ event, event_id, timestamp, data }) };
}

export function newDeliveryId(): string {
  return `dlv_${crypto.randomUUID().replace(/-/g, "")}`;
}

export function deliveryMessage(endpoint: { id: string; accountId: string }, envelope: Envelope, now: number = Date.now()): DeliveryMessage {
  return {
    v: 1,
    delivery_id: newDeliveryId(),
    endpoint_id: endpoint.id,
    account_id: endpoint.accountId,
    round: 0,
    event: envelope.event,
    event_id: envelope.event_id,
    timestamp: envelope.timestamp,
    body: envelope.body,
    emitted_at: now,
  };
}
