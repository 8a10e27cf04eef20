import { PLANS, type EventTier, type PlanName } from "../config";

// The event catalogue (docs/reference/webhooks.md, Event catalogue): every
// event key, its category, the minimum plan tier that may subscribe, and the
// shape of `data`. The event-types endpoint, create/update validation, the
// emit-time plan filter and the README table all read this one table.

export interface EventSpec {
  category: "billing" | "team" | "job" | "key";
  tier: EventTier;
  description: string;
  /** Field name -> type, as documented to subscribers. */
  data: Record<string, string>;
}

const JOB_DATA = { job_id: "string", tool: "string", operation: "string", request_id: "string", credits: "int" };

export const EVENT_CATALOG = {
  "invoice.paid": {
    category: "billing",
    tier: "pro",
    description: "A payment was recorded and its credits were added.",
    data: { payment_id: "string", amount_cents: "int", credits: "int" },
  },
  "invoice.payment_failed": {
    category: "billing",
    tier: "pro",
    description: "A payment attempt failed.",
    data: { payment_id: "string", amount_cents: "int", reason: "string|null" },
  },
  "subscription.updated": {
    category: "billing",
    tier: "pro",
    description: "The account's plan changed.",
    data: { previous_plan: "string", plan: "string" },
  },
  "credits.low": {
    category: "billing",
    tier: "free",
    description: "The balance fell under 10% of the last top-up.",
    data: { balance: "int" },
  },
  "team.member.invited": {
    category: "team",
    tier: "pro",
    description: "Someone was invited to the team.",
    data: { invitation_id: "string", email: "string", role: "string", invited_by: "string", expires_at: "string" },
  },
  "team.member.joined": {
    category: "team",
    tier: "pro",
    description: "An invitation was accepted.",
    data: { user_id: "string", email: "string", role: "string", invitation_id: "string" },
  },
  "team.member.role_changed": {
    category: "team",
    tier: "pro",
    description: "A member's role changed.",
    data: { user_id: "string", email: "string", previous_role: "string", role: "string", changed_by: "string" },
  },
  "team.member.removed": {
    category: "team",
    tier: "pro",
    description: "A member was removed; their dashboard tokens stopped working.",
    data: { user_id: "string", email: "string", role: "string", removed_by: "string" },
  },
  "job.queued": { category: "job", tier: "free", description: "An authenticated tool call was accepted and charged.", data: JOB_DATA },
  "job.processing": { category: "job", tier: "free", description: "The tool started working.", data: JOB_DATA },
  "job.completed": {
    category: "job",
    tier: "free",
    description: "The tool call succeeded.",
    data: { ...JOB_DATA, output_url: "string|null" },
  },
  "job.failed": {
    category: "job",
    tier: "free",
    description: "The tool call failed and was refunded (credits is 0).",
    data: { ...JOB_DATA, error_code: "string" },
  },
  "apikey.created": {
    category: "key",
    tier: "pro",
    description: "An API key was created.",
    data: { key_id: "string", name: "string", key_prefix: "string" },
  },
  "apikey.revoked": { category: "key", tier: "pro", description: "An API key was revoked.", data: { key_id: "string", name: "string" } },
} as const satisfies Record<string, EventSpec>;

export type EventKey = keyof typeof EVENT_CATALOG;
export const EVENT_KEYS = Object.keys(EVENT_CATALOG) as EventKey[];

/** Sent only by POST /webhooks/{id}/test; not subscribable. */
export const TEST_EVENT = "webhook.test";

export function isKnownEvent(event: string): event is EventKey {
  return Object.hasOwn(EVENT_CATALOG, event);
}

export function planAllows(plan: PlanName, event: EventKey): boolean {
  return PLANS[plan].eventTiers.includes(EVENT_CATALOG[event].tier);
}

export function eventsForPlan(plan: PlanName): EventKey[] {
  return EVENT_KEYS.filter((e) => planAllows(plan, e));
}
