import { z } from "zod";
import { ApiError } from "../errors";
import { defineRoute } from "../http/route";
import { loadJob } from "./store";

export const jobView = z.object({
  id: z.string().describe("The job id: the request id of the tool call."),
  object: z.literal("job"),
  tool: z.string(),
  operation: z.string(),
  status: z.enum(["processing", "completed", "failed"]),
  credits_charged: z.number().int(),
  output_url: z.string().nullable().describe("The output when there is exactly one."),
  output_urls: z.array(z.string()),
  error_code: z.string().nullable(),
  key_id: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

const getJob = defineRoute({
  id: "getJob",
  method: "get",
  path: "/api/v1/jobs/{id}",
  tags: ["jobs"],
  summary: "A tool call's job record",
  description: "Only the account that made the call finds it; another account's job answers 404 like one that does not exist.",
  auth: "key-or-jwt:read",
  params: z.object({ id: z.string().describe("The job_id a tool answered with.") }),
  problems: ["not_found"],
  responses: { 200: { description: "The job", schema: jobView } },
  handler: async (c, { caller, params }) => {
    const job = await loadJob(c.env, caller.accountId, params.id);
    if (!job) throw new ApiError("not_found", "This account has no job with that id.");
    return c.json(job);
  },
});

export const JOB_ROUTES = [getJob];
