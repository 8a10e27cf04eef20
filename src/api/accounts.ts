import { eq } from "drizzle-orm";
import { meterFor } from "../billing/meter";
import type { PlanName } from "../config";
import { database, schema } from "../db/client";
import type { Env } from "../env";
import { ApiError } from "../errors";

export interface AccountView {
  id: string;
  name: string;
  plan: PlanName;
  balance: number;
}

/** The account with its balance, read from the meter that owns it. */
export async function loadAccount(env: Env, accountId: string): Promise<AccountView> {
  const rows = await database(env.DB).select().from(schema.accounts).where(eq(schema.accounts.id, accountId)).limit(1);
  const row = rows[0];
  if (!row) throw new ApiError("not_found", "No such account.");
  const { balance } = await meterFor(env, accountId).state();
  return { id: row.id, name: row.name, plan: row.plan as PlanName, balance };
}
