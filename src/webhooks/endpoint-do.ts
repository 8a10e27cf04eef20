import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/** One per webhook endpoint: owns that endpoint's retry schedule (alarms). */
export class WebhookEndpoint extends DurableObject<Env> {}
