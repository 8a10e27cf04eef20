import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { ADMIN_TOKEN, call, postJson, withToken } from "../../support/http";
import { eventually } from "./network";

// Webhook API calls as a dashboard user makes them, plus the handles tests
// need on the endpoint's Durable Object (its alarm, its scheduled time).

export interface CreatedEndpoint {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  secret: string;
}

export interface Delivery {
  id: string;
  event: string;
  event_id: string;
  status: "pending" | "delivered" | "dead";
  attempts: number;
  redeliveries: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export async function createEndpoint(token: string, url: string, events: string[] = ["invoice.paid"]): Promise<CreatedEndpoint> {
  const res = await postJson("/api/v1/webhooks/", { url, events }, withToken(token));
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body as CreatedEndpoint;
}

export async function patchEndpoint(token: string, id: string, body: Record<string, unknown>): Promise<Response> {
  return call(`/api/v1/webhooks/${id}`, { method: "PATCH", body: JSON.stringify(body), headers: { "Content-Type": "application/json", ...withToken(token) } });
}

export async function getEndpoint(token: string, id: string): Promise<Record<string, unknown>> {
  const res = await call(`/api/v1/webhooks/${id}`, { headers: withToken(token) });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

export async function listDeliveries(token: string, id: string, query = ""): Promise<{ data: Delivery[]; next_cursor: string | null }> {
  const res = await call(`/api/v1/webhooks/${id}/deliveries${query}`, { headers: withToken(token) });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body as { data: Delivery[]; next_cursor: string | null };
}

export async function getDelivery(token: string, endpointId: string, deliveryId: string): Promise<Delivery> {
  const res = await call(`/api/v1/webhooks/${endpointId}/deliveries/${deliveryId}`, { headers: withToken(token) });
  expect(res.status).toBe(200);
  return (await res.json()) as Delivery;
}

/** Waits (through the real local queue) until the delivery satisfies `ok`. */
export async function waitForDelivery(token: string, endpointId: string, ok: (d: Delivery) => boolean, what = "delivery"): Promise<Delivery> {
  return eventually(async () => (await listDeliveries(token, endpointId)).data.find(ok), 15_000, what);
}

export async function sendTest(token: string, id: string): Promise<{ delivery_id: string; event_id: string }> {
  const res = await postJson(`/api/v1/webhooks/${id}/test`, {}, withToken(token));
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(202);
  return body as { delivery_id: string; event_id: string };
}

export async function redeliver(token: string, endpointId: string, deliveryId: string): Promise<Response> {
  return postJson(`/api/v1/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`, {}, withToken(token));
}

/** Records a payment through the operator API: emits invoice.paid. */
export async function pay(accountId: string, paymentId = `pay_${crypto.randomUUID()}`, credits = 100): Promise<string> {
  const res = await postJson(
    `/admin/v1/accounts/${accountId}/payments`,
    { payment_id: paymentId, amount_cents: 1999, credits },
    { Authorization: `Bearer ${ADMIN_TOKEN}` },
  );
  expect(res.status).toBe(201);
  return paymentId;
}

export function endpointObject(id: string) {
  return env.WEBHOOK_ENDPOINT.get(env.WEBHOOK_ENDPOINT.idFromName(id));
}

/** Fires the endpoint's alarm now (no waiting), as the runtime would at its time. */
export async function fireAlarm(id: string): Promise<boolean> {
  return runDurableObjectAlarm(endpointObject(id));
}

export async function scheduledAlarm(id: string): Promise<number | null> {
  return runInDurableObject(endpointObject(id), (_instance, state) => state.storage.getAlarm());
}
