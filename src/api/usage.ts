import { z } from "zod";
import type { Env } from "../env";
import { defineRoute } from "../http/route";
import { scopeCatalog } from "../tools/registry";

// Usage from the credit ledger (credit_ledger, written by tools/pipeline.ts
// after the meter decides): debits minus refunds, so a refunded call costs
// nothing and is not counted. Grants are top-ups, not usage. An account only
// ever reads its own rows: the account id comes from the credential, never
// from the request.

const GROUPS = ["day", "tool", "key"] as const;
type Group = (typeof GROUPS)[number];
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;
/** The `key` of usage by a dashboard user or console session rather than an API key. */
const NO_KEY = "jwt";

const isoDay = z.string().refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
  message: "must be a date YYYY-MM-DD",
  params: { code: "bad_request" },
});

const usageQuery = z
  .object({
    from: isoDay.optional().describe("First day, UTC, inclusive (YYYY-MM-DD). Default: the first day of the current month."),
    to: isoDay.optional().describe("Last day, UTC, inclusive (YYYY-MM-DD). Default: the last day of the current month."),
    group_by: z.enum(GROUPS).default("day").describe("day: one row per day of the range, zeros included; tool: per operation; key: per API key."),
  })
  .transform((q) => {
    const now = new Date();
    const from = q.from ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const to = q.to ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    return { from, to, group_by: q.group_by };
  })
  .superRefine((q, ctx) => {
    const days = (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1;
    if (days < 1) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from", params: { code: "bad_request" } });
    if (days > MAX_DAYS) ctx.addIssue({ code: "custom", path: ["to"], message: `the range is at most ${MAX_DAYS} days`, params: { code: "bad_request" } });
  });

const usageRow = z.object({
  key: z.string().describe("The day (YYYY-MM-DD), the operation key (e.g. pdf.merge), or the API key id (`jwt` for calls without a key)."),
  label: z.string().optional().describe("A readable name: the operation's or the key's."),
  credits: z.number().int(),
  calls: z.number().int(),
});

const usageView = z.object({
  from: z.string(),
  to: z.string(),
  group_by: z.enum(GROUPS),
  rows: z.array(usageRow),
  total_credits: z.number().int(),
  total_calls: z.number().int(),
});

const GROUP_SQL: Record<Group, string> = {
  day: "substr(created_at, 1, 10)",
  tool: "COALESCE(operation, '')",
  key: `COALESCE(key_id, '${NO_KEY}')`,
};

type Row = z.output<typeof usageRow>;

async function ledgerRows(env: Env, accountId: string, group: Group, from: string, to: string): Promise<Row[]> {
  const end = new Date(Date.parse(to) + DAY_MS).toISOString();
  const result = await env.DB.prepare(
    `SELECT ${GROUP_SQL[group]} AS key, -SUM(credits) AS credits, SUM(CASE kind WHEN 'debit' THEN 1 ELSE -1 END) AS calls
       FROM credit_ledger
      WHERE account_id = ?1 AND kind IN ('debit', 'refund') AND created_at >= ?2 AND created_at < ?3
      GROUP BY 1`,
  )
    .bind(accountId, `${from}T00:00:00.000Z`, end)
    .all<Row>();
  return result.results;
}

async function labelled(env: Env, accountId: string, group: Group, rows: Row[], from: string, to: string): Promise<Row[]> {
  if (group === "day") {
    const byDay = new Map(rows.map((r) => [r.key, r]));
    const out: Row[] = [];
    for (let t = Date.parse(from); t <= Date.parse(to); t += DAY_MS) {
      const day = new Date(t).toISOString().slice(0, 10);
      out.push(byDay.get(day) ?? { key: day, credits: 0, calls: 0 });
    }
    return out;
  }
  const names = new Map<string, string>();
  if (group === "tool") for (const op of scopeCatalog()) names.set(op.key, op.name);
  else {
    const keys = await env.DB.prepare("SELECT id, name FROM api_keys WHERE account_id = ?1").bind(accountId).all<{ id: string; name: string }>();
    for (const k of keys.results) names.set(k.id, k.name);
    names.set(NO_KEY, "Dashboard and console (no API key)");
  }
  return rows
    .filter((r) => r.calls !== 0 || r.credits !== 0)
    .map((r) => ({ ...r, ...(names.has(r.key) ? { label: names.get(r.key) } : {}) }))
    .sort((a, b) => b.credits - a.credits || b.calls - a.calls || a.key.localeCompare(b.key));
}

const getUsage = defineRoute({
  id: "getUsage",
  method: "get",
  path: "/api/v1/usage",
  tags: ["account"],
  summary: "Credits spent and calls made, by day, tool or API key",
  description:
    "From the credit ledger: debits net of refunds, so failed (refunded) calls count neither credits nor calls. " +
    "Days are UTC; the range is at most 366 days. Bad dates are 400 bad_request.",
  auth: "key-or-jwt:read",
  query: usageQuery,
  problems: ["bad_request"],
  responses: { 200: { description: "Usage of the caller's account", schema: usageView } },
  handler: async (c, { caller, query: { from, to, group_by } }) => {
    const rows = await labelled(c.env, caller.accountId, group_by, await ledgerRows(c.env, caller.accountId, group_by, from, to), from, to);
    const total_credits = rows.reduce((s, r) => s + r.credits, 0);
    const total_calls = rows.reduce((s, r) => s + r.calls, 0);
    return c.json({ from, to, group_by, rows, total_credits, total_calls });
  },
});

export const USAGE_ROUTES = [getUsage];
