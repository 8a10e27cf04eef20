import type { AccountMeter } from "./billing/meter-do";
import type { AiBinding } from "./engines/ai/workers-ai";
import type { OcrCallerEnv } from "./engines/ocr/caller";
import type { SettingVariables } from "./settings";
import type { WebhookEndpoint } from "./webhooks/endpoint-do";
import type { DeliveryMessage } from "./webhooks/messages";

/**
 * Bindings and variables of the Worker; wrangler.toml is the map of these.
 * The variables and secrets settingsOf checks come from SETTINGS
 * (src/settings.ts, SettingVariables), so a new setting is in Env without a
 * line here. OCR_SHARED_SECRET comes from OcrCallerEnv, since the OCR Worker
 * reads it too. What is declared below are the bindings.
 */
export interface Env extends SettingVariables, OcrCallerEnv {
  DB: D1Database;
  FILES: R2Bucket;
  METER: DurableObjectNamespace<AccountMeter>;
  WEBHOOK_ENDPOINT: DurableObjectNamespace<WebhookEndpoint>;
  WEBHOOK_QUEUE: Queue<DeliveryMessage>;
  /** Cloudflare Email Service (send_email); absent, mail stays in the outbox (src/mail/outbox.ts). */
  EMAIL?: SendEmail;
  /** Browser Rendering (src/engines/browser); locally miniflare launches Chromium (scripts/chrome-shim.mjs). */
  BROWSER: Fetcher;
  /** The OCR Worker (workers/ocr/wrangler.toml, src/ocr-worker.ts); without it scanned pages answer 503 ocr_unavailable. */
  OCR?: Fetcher;
  ANON_LIMITER: RateLimit;
  AUTH_LIMITER: RateLimit;
  /** Workers AI (wrangler.toml `[ai]`); AI_BASE_URL with model names serves instead (docs/tools/ai.md). */
  AI?: AiBinding;
}
