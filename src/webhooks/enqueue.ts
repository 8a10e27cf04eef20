import type { Env } from "../env";
import type { DeliveryMessage } from "./messages";
import { endpointStub } from "./stubs";

// Hands deliveries to the queue. A message is durable once send resolves; if
// the queue refuses twice, each delivery is written straight into its
// endpoint's Durable Object instead, whose alarm sends it. Only when both
// fail is the error raised (and logged by the caller).

export async function enqueueDeliveries(env: Env, messages: DeliveryMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const batch = messages.map((body) => ({ body, contentType: "json" as const }));
  let queueError: unknown;
  for (let tries = 0; tries < 2; tries++) {
    try {
      await env.WEBHOOK_QUEUE.sendBatch(batch);
      return;
    } catch (err) {
      queueError = err;
    }
  }
  console.error("webhooks: queue refused deliveries; recording them in their endpoints instead", queueError);
  await Promise.all(messages.map((m) => endpointStub(env, m.endpoint_id).accept(m)));
}
