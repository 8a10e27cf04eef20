import { and, desc, eq, inArray } from "drizzle-orm";
import type { PlanName } from "../config";
import { database, schema } from "../db/client";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { openSecret } from "./secret-box";

// D1 access for webhook endpoints: the records the API manages and the
// send-time view (URL, active flag, opened secrets) the senders need.

export type EndpointRow = typeof schema.webhookEndpoints.$inferSelect;

/** What a sender needs: the live URL and flag, and every secret to sign with. */
export interface SendTarget {
  id: string;
  accountId: string;
  url: string;
  active: boolean;
  /** Current secret first; the previous one too while its rotation window lasts. */
  secrets: string[];
  consecutiveFailures: number;
}

export function newEndpointId(): string {
  return `whk_${crypto.randomUUID().replace(/-/g, "")}`;
}

export async function findEndpoint(env: Env, accountId: string, id: string): Promise<EndpointRow> {
  const t = schema.webhookEndpoints;
  const rows = await database(env.DB)
    .select()
    .from(t)
    .where(and(eq(t.id, id), eq(t.accountId, accountId)))
    .limit(1);
  if (!rows[0]) throw new ApiError("not_found", "No such webhook endpoint in your account.");
  return rows[0];
}

export async function listEndpoints(env: Env, accountId: string): Promise<EndpointRow[]> {
  const t = schema.webhookEndpoints;
  return database(env.DB).select().from(t).where(eq(t.accountId, accountId)).orderBy(desc(t.createdAt), desc(t.id));
}

export function previousSecretLive(row: Pick<EndpointRow, "previousSecretSealed" | "previousSecretExpiresAt">, now: number): boolean {
  return !!row.previousSecretSealed && !!row.previousSecretExpiresAt && Date.parse(row.previousSecretExpiresAt) > now;
}

export async function signingSecrets(env: Env, row: EndpointRow, now: number = Date.now()): Promise<string[]> {
  const secrets = [await openSecret(env, row.id, row.secretSealed)];
  if (previousSecretLive(row, now)) secrets.push(await openSecret(env, row.id, row.previousSecretSealed!));
  return secrets;
}

/** Send-time view of several endpoints in one query; deleted endpoints are absent. */
export async function loadSendTargets(env: Env, ids: string[]): Promise<Map<string, SendTarget>> {
  const out = new Map<string, SendTarget>();
  if (ids.length === 0) return out;
  const t = schema.webhookEndpoints;
  const rows = await database(env.DB)
    .select()
    .from(t)
    .where(inArray(t.id, [...new Set(ids)]));
  for (const row of rows) {
    out.set(row.id, {
      id: row.id,
      accountId: row.accountId,
      url: row.url,
      active: row.active,
      secrets: await signingSecrets(env, row),
      consecutiveFailures: row.consecutiveFailures,
    });
  }
  return out;
}

/** Uses index webhook_endpoints_account (account_id, active); test/webhooks/events.test.ts checks the plan. */
export const SUBSCRIBERS_SQL = `SELECT e.id AS id, a.plan AS plan
  FROM webhook_endpoints e JOIN accounts a ON a.id = e.account_id
 WHERE e.account_id = ?1 AND e.active = 1
   AND EXISTS (SELECT 1 FROM json_each(e.events) WHERE json_each.value = ?2)`;

/**
 * emitEvent's hot-path lookup: one indexed query for the account's active
 * endpoints subscribed to `event`, with the plan for the tier check.
 */
export async function subscribedEndpoints(env: Env, accountId: string, event: string): Promise<{ id: string; plan: PlanName }[]> {
  const { results } = await env.DB.prepare(SUBSCRIBERS_SQL).bind(accountId, event).all<{ id: string; plan: PlanName }>();
  return results;
}
