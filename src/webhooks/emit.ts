import type { Env } from "../env";
import { isKnownEvent, planAllows } from "./catalog";
import { enqueueDeliveries } from "./enqueue";
import { deliveryMessage, newEnvelope } from "./messages";
import { subscribedEndpoints } from "./store";

/**
 * Emits `event` to the account's active endpoints subscribed to it. On the hot
 * path of every authenticated tool call (four job events each): one indexed
 * D1 query, and nothing more when nobody listens. When someone does, the
 * deliveries are durable (queued, or recorded in the endpoint's Durable
 * Object) before this returns, so a response is never sent for an event that
 * could still be lost. It never throws: an event problem must not fail (or
 * un-refund) the caller's operation; failures are logged.
 */
export async function emitEvent(env: Env, accountId: string, event: string, data: Record<string, unknown>, now: number = Date.now()): Promise<void> {
  if (!isKnownEvent(event)) {
    console.error("webhooks: emit of an event missing from the catalogue", event);
    return;
  }
  try {
    const endpoints = (await subscribedEndpoints(env, accountId, event)).filter((e) => planAllows(e.plan, event));
    if (endpoints.length === 0) return;
    const envelope = newEnvelope(event, data, now);
    await enqueueDeliveries(
      env,
      endpoints.map((e) => deliveryMessage({ id: e.id, accountId }, envelope, now)),
    );
  } catch (err) {
    console.error("webhooks: event could not be recorded", { event, accountId }, err);
  }
}
