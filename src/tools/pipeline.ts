import type { Principal } from "../auth/principal";
import { meterFor, recordLedger } from "../billing/meter";
import { EngineError } from "../engines/errors";
import { finishJob, type JobEnd, startJob } from "../jobs/store";
import { withMupdfCall } from "../engines/mupdf/core/loader";
import type { Env } from "../env";
import { ApiError, engineApiError, problemResponse } from "../errors";
import { principalOf, type AppContext } from "../http/context";
import { enforceRateLimit } from "../http/rate-limit";
import { type StoredOutput, storeOutput } from "../storage/outputs";
import { emitEvent } from "../webhooks/emit";
import { type CallLease, cancelled, isLive, leaseFor, onAbort, withLease } from "../runtime/call-lease";
import { reserveMemory, withMemory } from "../runtime/memory";
import { memoryEstimate } from "./memory-estimate";
import { checkAccess, checkKeyForOperation, checkKeyForTool, selectOperation } from "./access";
import type { Operation, ToolContext, ToolDef } from "./define";
import { bodyReservation, parseWith, readBody } from "../http/validate";

// The one path every tool call takes: identify (middleware) -> access ->
// rate limit -> memory for the body -> validate -> scope/permission ->
// memory for the work -> debit -> run -> settle, or refund on failure ->
// answer with X-Credits-Charged.
//
// Everything from the body on is owned by the call's lease (runtime/
// call-lease.ts): a client that disconnects releases its memory at once and
// has its debit refunded by the abort listener, or, should even that never
// run, by the meter's alarm once the longest possible call has passed. A
// call whose client left never delivers a result (job.completed) it was not
// charged for.

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

  const lease = leaseFor(c.req.raw.signal ?? null);
  // The body is memory too: it is admitted (by its declared length, or as it
  // arrives) before it is read, and nothing is charged until the work's own
  // estimate has been admitted as well.
  return withLease(lease, () =>
    withMemory(bodyReservation(c.req.raw), tool.id, async () => {
      const input = parseWith(tool.request, await readBody(c.req.raw, tool.body, { keepEmpty: tool.keepEmptyFields }));
      const operation = selectOperation(tool, input);
      checkAccess(tool, operation, principal, c.req.raw);
      checkKeyForOperation(operation, principal);

      const units = tool.quantity ? tool.quantity(input) : 1;
      const credits = principal.kind === "anonymous" ? 0 : operation.credits * units;
      await reserveMemory(memoryEstimate(tool, input));
      return runAdmitted(c, tool, { principal, operation, input, credits, lease });
    }),
  );
}

interface AdmittedCall {
  principal: Principal;
  operation: Operation;
  input: unknown;
  credits: number;
  lease: CallLease;
}

async function runAdmitted(c: AppContext, tool: ToolDef, call: AdmittedCall): Promise<Response> {
  const { principal, operation, credits, lease } = call;
  const env = c.env;
  const requestId = c.get("requestId");
  const jobData = { job_id: requestId, tool: tool.id, operation: operation.key, request_id: requestId, credits };
  // A failed call is given up on by the catch below or, when the client
  // leaves first, by the abort listener, whose work outlives the request
  // through waitUntil. The listener is in place before the debit is asked
  // for: code after any await here may never run once the client is gone,
  // and the meter refuses a debit that arrives after its refund.
  let failureReported = false;
  const giveUp = async (code: string): Promise<void> => {
    await refund(env, principal, requestId, operation, credits);
    await recordJobEnd(c, principal, requestId, { status: "failed", errorCode: code });
    if (failureReported) return;
    failureReported = true;
    await emitJob(c, principal, "job.failed", { ...jobData, credits: 0, error_code: code });
  };
  const stopListening = onAbort(lease, () => afterResponse(c, giveUp("request_cancelled")));
  try {
    await debit(env, principal, requestId, operation, credits, lease);
    return await runDebited(c, tool, call, jobData, giveUp);
  } finally {
    stopListening();
  }
}

async function runDebited(
  c: AppContext,
  tool: ToolDef,
  call: AdmittedCall,
  jobData: Record<string, unknown>,
  giveUp: (code: string) => Promise<void>,
): Promise<Response> {
  const { principal, operation, input, credits, lease } = call;
  const env = c.env;
  const requestId = c.get("requestId");
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
  if (principal.kind !== "anonymous") {
    await bestEffort("job start", () => startJob(env, principal, { id: requestId, tool: tool.id, operation: operation.key, credits }));
  }

  // Everything after the debit runs under the refund guard: any failure gives
  // the credits back before the error is answered.
  try {
    await emitJob(c, principal, "job.queued", jobData);
    await emitJob(c, principal, "job.processing", jobData);
    const result = await withMupdfCall(() => tool.handler(ctx, input));
    if (!(await settle(env, principal, requestId, credits, lease))) throw cancelled();
    const body = hasCreditsField(tool) ? { ...result.body, credits_charged: credits } : result.body;
    await recordJobEnd(c, principal, requestId, { status: "completed", outputUrls: stored.map((s) => s.url) });
    await emitJob(c, principal, "job.completed", { ...jobData, output_url: stored.length === 1 ? stored[0].url : null });
    const res = c.json(body, (result.status ?? 200) as 200);
    res.headers.set(CREDITS_HEADER, String(credits));
    return res;
  } catch (err) {
    const mapped = toApiError(tool, err);
    await giveUp(mapped instanceof ApiError ? mapped.code : "internal_error");
    throw err;
  }
}

/** Keeps `work` running after the request that started it is gone. */
function afterResponse(c: AppContext, work: Promise<void>): void {
  const guarded = work.catch((err: unknown) => console.error("cleanup after a cancelled call failed", err));
  try {
    c.executionCtx.waitUntil(guarded);
  } catch {
    // No execution context (the app called directly): the promise runs on its own.
  }
}

/**
 * Makes a finished call's debit final. False when the call was given up on
 * meanwhile (its client left, and its credits are back): its result must
 * not be delivered.
 */
async function settle(env: Env, p: Principal, requestId: string, credits: number, lease: CallLease): Promise<boolean> {
  if (p.kind === "anonymous" || credits === 0) return isLive(lease);
  const { settled } = await meterFor(env, p.accountId).settle(requestId);
  return settled && isLive(lease);
}

async function debit(env: Env, p: Principal, requestId: string, op: Operation, credits: number, lease: CallLease): Promise<void> {
  if (p.kind === "anonymous" || credits === 0) return;
  const outcome = await meterFor(env, p.accountId).charge({
    requestId,
    credits,
    keyId: p.kind === "key" ? p.keyId : null,
    keyLimit: p.kind === "key" ? p.creditLimit : null,
    // Open until settled: the meter's alarm refunds it should the call never answer.
    settleBy: lease.expiresAt,
    mirror: { accountId: p.accountId, operation: op.key, userId: p.userId },
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
 * job.* events fire for calls made with a key or JWT (docs/reference/webhooks.md, Event catalogue).
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
