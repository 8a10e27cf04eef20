import { buildApp } from "./app";
import type { Env } from "./env";
import { handleWebhookBatch } from "./webhooks/consumer";

export { AccountMeter } from "./billing/meter-do";
export { WebhookEndpoint } from "./webhooks/endpoint-do";

const app = buildApp();

export default {
  fetch: (req, env, ctx) => app.fetch(req, env, ctx),
  queue: (batch, env) => handleWebhookBatch(batch, env),
} satisfies ExportedHandler<Env>;
