import type { AccountMeter } from "./billing/meter-do";
import type { AiBinding } from "./engines/ai/workers-ai";
import type { WebhookEndpoint } from "./webhooks/endpoint-do";
import type { DeliveryMessage } from "./webhooks/messages";

/** Bindings and variables of the Worker; wrangler.toml is the map of these. */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  METER: DurableObjectNamespace<AccountMeter>;
  WEBHOOK_ENDPOINT: DurableObjectNamespace<WebhookEndpoint>;
  WEBHOOK_QUEUE: Queue<DeliveryMessage>;
  /** Cloudflare Email Service (send_email); absent, mail stays in the outbox (src/mail/outbox.ts). */
  EMAIL?: SendEmail;
  /** Sender address of outgoing mail, on a domain onboarded to Email Service. */
  MAIL_FROM?: string;
  /** Browser Rendering (src/engines/browser); locally miniflare launches Chromium (scripts/chrome-shim.mjs). */
  BROWSER: Fetcher;
  /** The OCR Worker (workers/ocr/wrangler.toml, src/ocr-worker.ts); without it scanned pages answer 503 ocr_unavailable. */
  OCR?: Fetcher;
  /** Sent to the OCR Worker on every call when set; set the same value there (src/engines/ocr/caller.ts). */
  OCR_SHARED_SECRET?: string;
  ANON_LIMITER: RateLimit;
  AUTH_LIMITER: RateLimit;
  JWT_SECRET?: string;
  ADMIN_TOKEN?: string;
  FILES_SIGNING_SECRET?: string;
  PUBLIC_FILES_BASE_URL?: string;
  CONSOLE_ORIGIN?: string;
  ALLOW_INSECURE_WEBHOOKS?: string;
  ALLOW_PRIVATE_WEBHOOK_TARGETS?: string;
  /** Dev and tests only: exact loopback origins the HTML renderer may load (never the webhook switch). */
  BROWSER_DEV_ALLOWED_ORIGINS?: string;
  /** Tests only: shortens the 30 s page-load timeout of the HTML renderer. */
  BROWSER_PAGE_TIMEOUT_MS?: string;
  /** Seals webhook signing secrets at rest; falls back to JWT_SECRET (README, Webhooks). */
  WEBHOOK_SECRET_KEY?: string;
  /** Tests only: shortens the 10 s webhook send timeout. */
  WEBHOOK_SEND_TIMEOUT_MS?: string;
  /** Workers AI (wrangler.toml `[ai]`); AI_BASE_URL with model names serves instead (docs/tools/ai.md). */
  AI?: AiBinding;
  AI_BASE_URL?: string;
  AI_API_KEY?: string;
  AI_TEXT_MODEL?: string;
  AI_VISION_MODEL?: string;
  /** Per model call, in ms (default 60,000); tests shorten it. */
  AI_TIMEOUT_MS?: string;
  /** "open": an unknown e-mail's sign-in link creates a free account; "closed" (default) signs in existing users only. */
  SIGNUP?: string;
  /** Dev only: "true" serves GET /dev/mailbox. */
  DEV_MAILBOX?: string;
}
