import { eq } from "drizzle-orm";
import { z } from "zod";
import { meterFor } from "../billing/meter";
import { type PlanName, planName } from "../config";
import { database, schema } from "../db/client";
import type { Env } from "../env";
import { ApiError } from "../errors";

/** The account as every route answers it (GET /api/v1/account, the operator API). */
export const accountView = z.object({
  id: z.string(),
  name: z.string(),
  plan: planName,
  balance: z.number().int().describe("Credits left."),
});

export type AccountView = z.output<typeof accountView>;

/** The account with its balance, read from the meter that owns it. */
export async function loadAccount(env: Env, accountId: string): Promise<AccountView> {
  const rows = await database(env.DB).select().from(schema.accounts).where(eq(schema.accounts.id, accountId)).limit(1);
  const row = rows[0];
  if (!row) throw new ApiError("not_found", "No such account.");
  const { balance } = await meterFor(env, accountId).state();
  return { id: row.id, name: row.name, plan: row.plan as PlanName, balance };
}
