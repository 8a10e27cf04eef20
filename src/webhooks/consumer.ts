import type { Env } from "../env";

/** Queue consumer for webhook deliveries. */
export async function handleWebhookBatch(batch: MessageBatch<unknown>, _env: Env): Promise<void> {
  batch.ackAll();
}
