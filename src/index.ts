import { purgeEndedSignIns } from "./auth/sessions";
import { buildApp } from "./app";
import type { Env } from "./env";
import { purgeIdempotencyKeys } from "./http/idempotency";
import { flushOutbox } from "./mail/outbox";
import { handleWebhookBatch } from "./webhooks/consumer";

export { AccountMeter } from "./billing/meter-do";
export { WebhookEndpoint } from "./webhooks/endpoint-do";

const app = buildApp();

export default {
  fetch: (req, env, ctx) => app.fetch(req, env, ctx),
  queue: (batch, env) => handleWebhookBatch(batch, env),
  // The cron trigger (wrangler.toml) retries outbox mail that could not be sent when it was written, and drops day-old idempotency answers.
  scheduled: async (_event, env) => {
    await flushOutbox(env);
    await purgeIdempotencyKeys(env.DB);
    await purgeEndedSignIns(env.DB);
  },
} satisfies ExportedHandler<Env>;
