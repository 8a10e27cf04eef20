import { Hono } from "hono";
import { principalOf, type AppEnv } from "../http/context";
import { requireCaller } from "../http/guards";
import { loadAccount } from "./accounts";

/** GET /api/v1/account: a JWT, or an API key with `read`. */
export const accountApi = new Hono<AppEnv>().get("/", async (c) => {
  const caller = requireCaller(await principalOf(c), "read");
  return c.json(await loadAccount(c.env, caller.accountId));
});
