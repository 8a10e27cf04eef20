import type { AccountMeter } from "./billing/meter-do";

/** Bindings and variables of the Worker; wrangler.toml is the map of these. */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  METER: DurableObjectNamespace<AccountMeter>;
  WEBHOOK_ENDPOINT: DurableObjectNamespace;
  WEBHOOK_QUEUE: Queue;
  ANON_LIMITER: RateLimit;
  AUTH_LIMITER: RateLimit;
  JWT_SECRET?: string;
  ADMIN_TOKEN?: string;
  FILES_SIGNING_SECRET?: string;
  PUBLIC_FILES_BASE_URL?: string;
  ALLOW_INSECURE_WEBHOOKS?: string;
  ALLOW_PRIVATE_WEBHOOK_TARGETS?: string;
  AI_BASE_URL?: string;
  AI_API_KEY?: string;
  AI_TEXT_MODEL?: string;
  AI_VISION_MODEL?: string;
}
