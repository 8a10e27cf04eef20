import type { Principal } from "../auth/principal";
import { meterFor, recordLedger } from "../billing/meter";
import { EngineError } from "../engines/errors";
import { finishJob, type JobEnd, startJob } from "../jobs/store";
import { withMupdfCall } from "../engines/mupdf/loader";
import type { Env } from "../env";
import { ApiError, engineApiError, problemResponse } from "../errors";
import { principalOf, type AppContext } from "../http/context";
import { enforceRateLimit } from "../http/rate-limit";
import { type StoredOutput, storeOutput } from "../storage/outputs";
import { emitEvent } from "../webhooks/emit";
import { withMemory } from "../runtime/memory";
import { memoryEstimate } from "./memory-estimate";
import { checkAccess, checkKeyForOperation, checkKeyForTool, selectOperation } from "./access";
import type { Operation, ToolContext, ToolDef } from "./define";
import { parseWith, readBody } from "./validate";

// The one path every tool call takes (issue #2): identify (middleware) ->
// access -> rate limit -> validate -> scope/permission -> debit -> run ->
// refund on failure -> answer with X-Credits-Charged.

export const CREDITS_HEADER = "X-Credits-Charged";

function toApiError(tool: ToolDef, err: unknown): unknown {
  return err instanceof EngineError ? engineApiError(err, tool.engineErrors) : err;
}

function hasCreditsField(tool: ToolDef): boolean {
  return "credits_charged" in tool.response.shape;
}

export function toolRoute(tool: ToolDef) {
  return async (c: AppContext): Promise<Response> => {
    try {
      return await runTool(c, tool);
    } catch (err) {
      const res = problemResponse(c, toApiError(tool, err));
      res.headers.set(CREDITS_HEADER, "0");
      return res;
    }
  };
}

async function runTool(c: AppContext, tool: ToolDef): Promise<Response> {
  const env = c.env;
  const principal = await principalOf(c);

  checkAccess(tool, tool.operations[0], principal, c.req.raw);
  checkKeyForTool(tool, principal);
  await enforceRateLimit(env, principal);

  const input = parseWith(tool.request, await readBody(c.req.raw, tool.body));
  const operation = selectOperation(tool, input);
  checkAccess(tool, operation, principal, c.req.raw);
  checkKeyForOperation(operation, principal);

  const units = tool.quantity ? tool.quantity(input) : 1;
  const credits = principal.kind === "anonymous" ? 0 : operation.credits * units;
  // Admitted against the isolate's memory before anything is charged: a
  // call that cannot get memory in time is a 503 with nothing to refund.
  return withMemory(memoryEstimate(tool, input), tool.id, () => runAdmitted(c, tool, principal, operation, input, credits));
}

async function runAdmitted(c: AppContext, tool: ToolDef, principal: Principal, operation: Operation, input: unknown, credits: number): Promise<Response> {
  const env = c.env;
  const requestId = c.get("requestId");
  await debit(env, principal, requestId, operation, credits);

  const stored: StoredOutput[] = [];
  const ctx: ToolContext = {
    env,
    request: c.req.raw,
    requestId,
    jobId: requestId,
    principal,
    operation,
    credits,
    // What a call stores is what its job produced: job.completed names it
    // from here, not from whichever field of the body looks like a URL.
    store: async (file, opts) => {
      const output = await storeOutput(env, new URL(c.req.url).origin, file, opts);
      stored.push(output);
      return output;
    },
  };
  const jobData = { job_id: requestId, tool: tool.id, operation: operation.key, request_id: requestId, credits };
  if (principal.kind !== "anonymous") {
    await bestEffort("job start", () => startJob(env, principal, { id: requestId, tool: tool.id, operation: operation.key, credits }));
  }

  // Everything after the debit runs under the refund guard: any failure gives
  // the credits back before the error is answered.
  try {
    await emitJob(c, principal, "job.queued", jobData);
    await emitJob(c, principal, "job.processing", jobData);
    const result = await withMupdfCall(() => tool.handler(ctx, input));
    const body = hasCreditsField(tool) ? { ...result.body, credits_charged: credits } : result.body;
    await recordJobEnd(c, principal, requestId, { status: "completed", outputUrls: stored.map((s) => s.url) });
    await emitJob(c, principal, "job.completed", { ...jobData, output_url: stored.length === 1 ? stored[0].url : null });
    const res = c.json(body, (result.status ?? 200) as 200);
    res.headers.set(CREDITS_HEADER, String(credits));
    return res;
  } catch (err) {
    await refund(env, principal, requestId, operation, credits);
    const mapped = toApiError(tool, err);
    const code = mapped instanceof ApiError ? mapped.code : "internal_error";
    await recordJobEnd(c, principal, requestId, { status: "failed", errorCode: code });
    await emitJob(c, principal, "job.failed", { ...jobData, credits: 0, error_code: code });
    throw err;
  }
}

async function debit(env: Env, p: Principal, requestId: string, op: Operation, credits: number): Promise<void> {
  if (p.kind === "anonymous" || credits === 0) return;
  const outcome = await meterFor(env, p.accountId).charge({
    requestId,
    credits,
    keyId: p.kind === "key" ? p.keyId : null,
    keyLimit: p.kind === "key" ? p.creditLimit : null,
  });
  if (!outcome.ok) {
    if (outcome.reason === "budget_exceeded") {
      throw new ApiError("budget_exceeded", `This call costs ${credits} credits and would exceed the key's monthly credit_limit.`);
    }
    throw new ApiError("insufficient_credits", `This call costs ${credits} credits; the balance is ${outcome.balance}.`);
  }
  // The meter has decided; the D1 ledger is its mirror and must not fail the call.
  await bestEffort("ledger debit", () =>
    recordLedger(env, {
      accountId: p.accountId,
      kind: "debit",
      credits: -credits,
      balanceAfter: outcome.balance,
      requestId,
      operation: op.key,
      keyId: p.kind === "key" ? p.keyId : null,
      userId: p.userId,
    }),
  );
  if (outcome.crossedLow) {
    await bestEffort("emit credits.low", () => emitEvent(env, p.accountId, "credits.low", { balance: outcome.balance }));
  }
}

async function refund(env: Env, p: Principal, requestId: string, op: Operation, credits: number): Promise<void> {
  if (p.kind === "anonymous" || credits === 0) return;
  const outcome = await meterFor(env, p.accountId).refund(requestId);
  if (!outcome.refunded) return;
  await bestEffort("ledger refund", () =>
    recordLedger(env, {
      accountId: p.accountId,
      kind: "refund",
      credits: outcome.credits,
      balanceAfter: outcome.balance,
      requestId,
      operation: op.key,
      keyId: p.kind === "key" ? p.keyId : null,
      userId: p.userId,
    }),
  );
}

/**
 * job.* events fire for calls made with a key or JWT (decisions.md, Beyond).
 * A notification must never fail or un-bill the call it reports on.
 */
async function emitJob(c: AppContext, p: Principal, event: string, data: Record<string, unknown>): Promise<void> {
  if (p.kind === "anonymous") return;
  await bestEffort(`emit ${event}`, () => emitEvent(c.env, p.accountId, event, data));
}

/** The job row mirrors the call for GET /api/v1/jobs/{id}; like the ledger, it must not fail the call. */
async function recordJobEnd(c: AppContext, p: Principal, jobId: string, end: JobEnd): Promise<void> {
  if (p.kind === "anonymous") return;
  await bestEffort("job finish", () => finishJob(c.env, jobId, end));
}

async function bestEffort(what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    console.error(`${what} failed`, err);
  }
}
