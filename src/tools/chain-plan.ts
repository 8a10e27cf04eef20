import { z } from "zod";
import { selectOperation } from "./access";
import type { Operation, ToolDef } from "./define";
import { formFieldsOf } from "./json-fields";

// What a chain will run, judged before anything runs or is charged: each
// step names a declared tool and fields that tool accepts, its inputs are
// the previous step's output ("$prev"), a file part of the request
// ("$file:<name>") or an inline file reference, and its operation (hence
// its credits) is known. The chain is charged the sum up front.

export const MAX_STEPS = 10;
export const PREV = "$prev";
export const FILE_PART = "$file:";

export interface PlannedStep {
  index: number;
  tool: ToolDef;
  fields: Record<string, unknown>;
  operation: Operation;
}

export interface ChainPlan {
  steps: PlannedStep[];
  credits: number;
  /** 1-based step numbers whose outputs are stored besides the last step's. */
  keep: number[];
}

const stepSchema = z.object({
  tool: z.string().meta({ description: "The tool's id, as /openapi.json's operationId and MCP's tools/list name it (merge-pdf, watermark-text...)." }),
  fields: z
    .record(z.string(), z.unknown())
    .default({})
    .meta({
      description: `The tool's fields as JSON values. A file field takes "${PREV}" (the previous step's output), "${FILE_PART}<part>" (a file part of this request) or a file reference {base64, filename} / {url}; in a JSON tool (compress) "${PREV}" stands for the Base64 of the previous output.`,
    }),
});

/** JSON text in a multipart field, or the value itself in a JSON body; the schema shows the value. */
const jsonValue = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v, ctx) => {
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "This field must be valid JSON.", params: { code: "invalid_json" } });
      return z.NEVER;
    }
  }, schema);

export const stepsField = jsonValue(z.array(stepSchema).min(1, "Give at least one step.").max(MAX_STEPS, `At most ${MAX_STEPS} steps.`));

export const keepField = z
  .preprocess(
    (v) =>
      typeof v === "string"
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
            .map(Number)
        : typeof v === "number"
          ? [v]
          : v,
    z.array(z.number().int().min(1)),
  )
  .default([])
  .meta({ description: "Step numbers (1-based) whose outputs are stored too; only the last step's are by default. A list or comma-separated text." });

type Step = z.output<typeof stepSchema>;

/** "%PDF-" as Base64: what a JSON tool's Base64 field is given for a file not yet made. */
const PDF_BASE64_STAND_IN = "JVBERi0=";

/**
 * Checks every step against its tool's request schema and picks its
 * operation, before anything runs. A file the chain has not made yet
 * ("$prev") is a stand-in: a one-byte "previous.pdf"; what that stand-in
 * cannot satisfy (another file type, real content) is judged when the step
 * runs, and the step's operation is then its tool's first (every tool that
 * picks among several reads PDFs and picks by other fields). Issues are
 * added to `ctx` under steps[i].
 */
export function planChain(
  steps: Step[],
  keep: number[],
  parts: ReadonlyMap<string, File>,
  tools: ReadonlyMap<string, ToolDef>,
  ctx: z.RefinementCtx,
): ChainPlan | null {
  const planned: PlannedStep[] = [];
  let ok = true;
  const issue = (path: (string | number)[], message: string, code?: string) => {
    ok = false;
    ctx.addIssue({ code: "custom", path: ["steps", ...path], message, params: code ? { code } : undefined });
  };
  for (const [i, step] of steps.entries()) {
    const tool = tools.get(step.tool);
    if (!tool || tool.id === CHAIN_ID) {
      issue([i, "tool"], tool ? "A chain cannot contain a chain." : `No tool ${JSON.stringify(step.tool)}; use a tool id from /openapi.json (operationId).`);
      continue;
    }
    const deferred = new Set<string>();
    const raw = standInFields(tool, step.fields, i, parts, deferred, issue);
    const parsed = tool.request.safeParse(raw);
    if (parsed.success) {
      planned.push({ index: i, tool, fields: step.fields, operation: selectOperation(tool, parsed.data) });
      continue;
    }
    const real = parsed.error.issues.filter((e) => !deferred.has(String(e.path[0])));
    for (const e of real) issue([i, "fields", ...(e.path as (string | number)[])], e.message, (e as { params?: { code?: string } }).params?.code);
    if (!real.length) planned.push({ index: i, tool, fields: step.fields, operation: tool.operations[0] });
  }
  for (const n of keep) if (n > steps.length) issue([], `keep names step ${n}, but the chain has ${steps.length}.`);
  if (!ok) return null;
  return { steps: planned, credits: planned.reduce((sum, s) => sum + s.operation.credits, 0), keep: [...new Set(keep)] };
}

export const CHAIN_ID = "chain";

/** The step's fields as its form would carry them, each file that exists (a request part) itself and each other a stand-in. */
function standInFields(
  tool: ToolDef,
  fields: Record<string, unknown>,
  i: number,
  parts: ReadonlyMap<string, File>,
  deferred: Set<string>,
  issue: (path: (string | number)[], message: string) => void,
): Record<string, unknown> {
  const check = (value: unknown, path: (string | number)[]): File | null => {
    if (value === PREV) {
      if (i === 0) issue(path, `The first step has no previous output for "${PREV}".`);
      return null;
    }
    if (typeof value === "string" && value.startsWith(FILE_PART)) {
      const part = parts.get(value.slice(FILE_PART.length));
      if (!part) issue(path, `The request has no file part named ${JSON.stringify(value.slice(FILE_PART.length))}.`);
      return part ?? null;
    }
    return null;
  };
  if (tool.body !== "multipart") {
    // JSON tools take files as Base64 text: "$prev" and file parts stand in as a Base64 PDF header.
    return Object.fromEntries(
      Object.entries(fields).map(([k, v]) => {
        if (v !== PREV && !(typeof v === "string" && v.startsWith(FILE_PART))) return [k, v];
        check(v, [i, "fields", k]);
        deferred.add(k);
        return [k, PDF_BASE64_STAND_IN];
      }),
    );
  }
  return formFieldsOf(tool, fields, (value, field) => {
    const name = field.replace(/\[\d+\]$/, "");
    const index = /\[(\d+)\]$/.exec(field)?.[1];
    const found = check(value, [i, "fields", name, ...(index === undefined ? [] : [Number(index)])]);
    if (found) return found;
    deferred.add(name);
    return new File([new Uint8Array([0x25])], "previous.pdf");
  });
}
