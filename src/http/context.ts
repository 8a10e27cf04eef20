import type { Context } from "hono";
import { identify } from "../auth/identify";
import type { Principal } from "../auth/principal";
import type { Env } from "../env";

export interface AppEnv {
  Bindings: Env;
  Variables: { requestId: string; principal?: Principal };
}

export type AppContext = Context<AppEnv>;

/**
 * The caller of this request, identified on first use and remembered. Lazy so
 * that a credential error surfaces inside the route that needs it (tool
 * routes then still answer with X-Credits-Charged).
 */
export async function principalOf(c: AppContext): Promise<Principal> {
  const known = c.get("principal");
  if (known) return known;
  const p = await identify(c.env, c.req.raw);
  c.set("principal", p);
  return p;
}
