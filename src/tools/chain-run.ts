import { ByteParts, contiguous } from "../engines/bytes";
import { EngineError } from "../engines/errors";
import { ApiError, engineApiError } from "../errors";
import { parseWith } from "../http/validate";
import { holdMemory, reserveMemory } from "../runtime/memory";
import { toBase64 } from "../secrets/encoding";
import type { OutputFile, StoredOutput } from "../storage/outputs";
import { checkAccess, checkKeyForOperation, checkKeyForTool, selectOperation } from "./access";
import { FILE_PART, PREV, type ChainPlan, type PlannedStep } from "./chain-plan";
import type { ToolContext } from "./define";
import { type FileSource, resolveFile } from "./file-reference";
import { formFieldsOf, settledFields } from "./json-fields";
import { memoryEstimate } from "./memory-estimate";

// Runs a planned chain inside the chain's own call: one debit (the
// pipeline charged the sum), one job, one memory reservation. Each step is
// its tool's handler with its own validated input; what a step stores
// stays in memory as the next step's input unless it is the last step's or
// `keep` names it, when it goes to storage as any output does. A failing
// step fails the call, which the pipeline refunds whole.

interface Output {
  file: OutputFile;
  /** Set when the output went to storage. */
  stored: StoredOutput | null;
}

export interface StepReport {
  step: number;
  tool: string;
  operation: string;
  credits: number;
  output_urls: string[];
  result: Record<string, unknown> | null;
}

/** A step's failure as the chain's: the same code, the step named in the detail and in `errors`. */
function stepError(s: PlannedStep, err: unknown): unknown {
  const api = err instanceof EngineError ? engineApiError(err, s.tool.engineErrors) : err;
  if (!(api instanceof ApiError)) return err;
  const at = `steps[${s.index}]`;
  return new ApiError(api.code, `Step ${s.index + 1} (${s.tool.id}) failed: ${api.message}`, {
    headers: api.headers,
    errors: [{ field: at, message: api.message }, ...(api.errors ?? []).map((e) => ({ field: `${at}.fields.${e.field}`, message: e.message }))],
  });
}

const asFile = ({ file }: Output) => new File(file.data instanceof ByteParts ? [...file.data.parts] : [file.data], file.filename, { type: file.contentType });

/** The chain's steps, in order; answers each step's report and the last step's outputs. */
export async function runChain(ctx: ToolContext, plan: ChainPlan, parts: ReadonlyMap<string, File>) {
  // Every step's access class, plan and scopes before anything runs.
  for (const s of plan.steps) {
    try {
      checkAccess(s.tool, s.operation, ctx.principal, ctx.request);
      checkKeyForTool(s.tool, ctx.principal);
      checkKeyForOperation(s.operation, ctx.principal);
    } catch (err) {
      throw stepError(s, err);
    }
  }
  const source: FileSource = { env: ctx.env, origin: new URL(ctx.request.url).origin, principal: ctx.principal, signal: ctx.request.signal };
  const reports: StepReport[] = [];
  let previous: Output[] = [];
  for (const s of plan.steps) {
    const last = s === plan.steps[plan.steps.length - 1];
    const persist = last || plan.keep.includes(s.index + 1);
    try {
      const run = await runStep(ctx, s, previous, parts, source, persist);
      previous = run.outputs;
      reports.push({
        step: s.index + 1,
        tool: s.tool.id,
        operation: s.operation.key,
        credits: ctx.principal.kind === "anonymous" ? 0 : s.operation.credits,
        output_urls: run.outputs.flatMap((o) => (o.stored ? [o.stored.url] : [])),
        result: persist ? run.body : null,
      });
    } catch (err) {
      throw stepError(s, err);
    }
  }
  return { steps: reports, outputs: previous };
}

async function runStep(ctx: ToolContext, s: PlannedStep, previous: Output[], parts: ReadonlyMap<string, File>, source: FileSource, persist: boolean) {
  const prevFile = (): Output => {
    if (previous.length !== 1) {
      throw new ApiError("validation_failed", `"${PREV}" needs exactly one output of the previous step, which stored ${previous.length}.`);
    }
    return previous[0];
  };
  const partOf = (value: string): File => {
    const part = parts.get(value.slice(FILE_PART.length));
    if (!part) throw new ApiError("validation_failed", `No file part named ${value.slice(FILE_PART.length)}.`);
    return part;
  };
  const raw =
    s.tool.body === "multipart"
      ? await settledFields(
          formFieldsOf(s.tool, s.fields, (value, field) => async () => {
            if (value === PREV) return asFile(prevFile());
            if (typeof value === "string" && value.startsWith(FILE_PART)) return partOf(value);
            return resolveFile(value, field, source);
          }),
        )
      : await base64Fields(s.fields, () => contiguous(prevFile().file.data), partOf);
  const input = parseWith(s.tool.request, raw);
  const operation = selectOperation(s.tool, input);
  if (operation.key !== s.operation.key) {
    throw new ApiError(
      "validation_failed",
      `The step's input selects ${operation.key}, not the ${s.operation.key} the chain was charged for; name the engine or mode in its fields.`,
    );
  }
  await reserveMemory(memoryEstimate(s.tool, input));

  const outputs: Output[] = [];
  const stepCtx: ToolContext = {
    ...ctx,
    operation,
    credits: ctx.principal.kind === "anonymous" ? 0 : operation.credits,
    store: async (file, opts) => {
      if (persist) {
        const stored = await ctx.store(file, opts);
        outputs.push({ file, stored });
        return stored;
      }
      // Kept in memory for the next step; the name is what a step's answer would show, never a link anyone can open.
      await holdMemory(file.data.byteLength);
      outputs.push({ file, stored: null });
      return { key: "", objectKey: "", url: `chain:step-${s.index + 1}/${file.filename}`, size: file.data.byteLength };
    },
  };
  const result = await s.tool.handler(stepCtx, input);
  return { outputs, body: result.body };
}

/** A JSON tool's fields with "$prev" and "$file:<part>" as the Base64 of those files. */
async function base64Fields(fields: Record<string, unknown>, prev: () => Uint8Array, part: (v: string) => File): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === PREV) out[k] = toBase64(prev());
    else if (typeof v === "string" && v.startsWith(FILE_PART)) out[k] = toBase64(new Uint8Array(await part(v).arrayBuffer()));
    else out[k] = v;
  }
  return out;
}
