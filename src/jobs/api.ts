import { Hono } from "hono";
import { ApiError } from "../errors";
import { principalOf, type AppEnv } from "../http/context";
import { requireCaller } from "../http/guards";
import { loadJob } from "./store";

/** GET /api/v1/jobs/{id}: a JWT, or an API key with `read`, of the account that made the call. */
export const jobsApi = new Hono<AppEnv>().get("/:id", async (c) => {
  const caller = requireCaller(await principalOf(c), "read");
  const job = await loadJob(c.env, caller.accountId, c.req.param("id"));
  // Another account's job answers exactly like a job that does not exist.
  if (!job) throw new ApiError("not_found", "This account has no job with that id.");
  return c.json(job);
});
