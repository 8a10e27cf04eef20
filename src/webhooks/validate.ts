import { z } from "zod";
import type { PlanName } from "../config";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { EVENT_CATALOG, isKnownEvent, planAllows, type EventKey } from "./catalog";
import { dohResolver } from "../net/dns";
import { MAX_URL_LENGTH, TargetRefused, checkTarget, policyFromEnv, type Resolver } from "../net/ssrf";

// Request schemas of webhook management and the checks zod cannot make on
// its own: the plan tier of each event and the SSRF check of the URL.

const eventList = z
  .array(z.string())
  .min(1, "Subscribe to at least one event.")
  .superRefine((events, ctx) => {
    events.forEach((e, i) => {
      if (!isKnownEvent(e)) ctx.addIssue({ code: "custom", path: [i], message: `Unknown event '${e}'; see GET /api/v1/webhooks/event-types.` });
    });
  })
  .transform((events) => [...new Set(events)] as EventKey[]);

const url = z.string().trim().min(1).max(MAX_URL_LENGTH);
const description = z.string().max(300, "At most 300 characters.");

export const createEndpointSchema = z.object({ url, events: eventList, description: description.optional() });

export const updateEndpointSchema = z
  .object({ url: url.optional(), events: eventList.optional(), active: z.boolean().optional(), description: description.nullable().optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Give at least one of url, events, active, description." });

export const deliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(64).optional(),
});

/** 403 when the plan's tiers do not include every requested event (docs/reference/webhooks.md, Event catalogue). */
export function requireEventsAllowed(plan: PlanName, events: EventKey[]): void {
  const denied = events.filter((e) => !planAllows(plan, e));
  if (denied.length) {
    const list = denied.map((e) => `${e} (${EVENT_CATALOG[e].tier} tier)`).join(", ");
    throw new ApiError("plan_required", `The ${plan} plan cannot subscribe to ${list}; see GET /api/v1/webhooks/event-types.`);
  }
}

/** The SSRF check at create and update; a refusal is a 422 on the `url` field. */
export async function requireSafeUrl(env: Env, raw: string, resolve: Resolver = dohResolver()): Promise<string> {
  try {
    return (await checkTarget(raw, policyFromEnv(env), resolve)).toString();
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    throw new ApiError("unsafe_webhook_url", err.message, { errors: [{ field: "url", message: err.message }] });
  }
}

export function encodeCursor(seq: number): string {
  return btoa(`s:${seq}`).replace(/=+$/, "");
}

export function decodeCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  try {
    const m = /^s:(\d{1,15})$/.exec(atob(cursor));
    if (m) return Number(m[1]);
  } catch {
    /* falls through to the 422 */
  }
  throw new ApiError("validation_failed", "cursor: not a cursor from a previous page.", { errors: [{ field: "cursor", message: "Invalid cursor." }] });
}
