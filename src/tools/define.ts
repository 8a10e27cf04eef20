import type { z } from "zod";
import type { Principal } from "../auth/principal";
import type { PLANS } from "../config";
import type { Env } from "../env";
import type { EngineErrorCodes, ErrorCode } from "../errors";
import type { OutputFile, StoredOutput } from "../storage/outputs";

/**
 * Who may run an operation: anyone (anonymous at 0 credits), any signed-in
 * caller, or a caller whose plan has a feature column of PLANS set.
 */
export type Access = "free-try" | "login" | `plan:${PlanFeature}`;
export type PlanFeature = { [K in keyof (typeof PLANS)["free"]]: (typeof PLANS)["free"][K] extends boolean ? K : never }[keyof (typeof PLANS)["free"]];

/** A billable operation: its key is what scopes name and the ledger records. */
export interface Operation {
  key: string;
  name: string;
  credits: number;
  access: Access;
}

export interface ToolContext {
  env: Env;
  request: Request;
  requestId: string;
  /** The call's job id (its request id): what `job_id` fields answer, and what GET /api/v1/jobs/{id} finds for a key or JWT caller. */
  jobId: string;
  principal: Principal;
  operation: Operation;
  /** Credits this call is charged (0 for anonymous callers). */
  credits: number;
  /** Stores a result in R2 and answers its URL. */
  store(file: OutputFile, opts?: { temporary?: boolean }): Promise<StoredOutput>;
}

export interface ToolResult {
  body: Record<string, unknown>;
  status?: number;
}

export type BodyKind = "multipart" | "json" | "json-or-multipart";

export interface ToolDef<S extends z.ZodType = z.ZodType> {
  /** kebab-case id, also the OpenAPI operationId. */
  id: string;
  name: string;
  method: "post";
  path: string;
  /** How the request body comes; "json-or-multipart" takes either (Chain: steps as JSON, files as parts or inline). */
  body: BodyKind;
  /** Multipart text fields sent empty reach the schema as "" instead of counting as absent (Edit metadata: an empty field removes it). */
  keepEmptyFields?: boolean;
  summary: string;
  /** The first operation is the default; `selectOperation` picks another by input. */
  operations: readonly [Operation, ...Operation[]];
  selectOperation?: (input: z.output<S>) => string;
  /** How many units of the operation a call consumes (batch tools). */
  quantity?: (input: z.output<S>) => number;
  /** Unlock PDF: an anonymous call must come from a browser (Origin header). */
  anonymousNeedsOrigin?: boolean;
  /** Where this tool's reference page gives other codes than the defaults of ENGINE_ERROR_CODES (docs/reference/errors.md). */
  engineErrors?: EngineErrorCodes;
  /**
   * Codes the tool's handler, fields and engines can give beyond the
   * pipeline's own and its engine errors (tools/problems.ts adds those); the
   * OpenAPI operation lists exactly these.
   */
  problems?: ErrorCode[];
  request: S;
  response: z.ZodObject;
  /** Bytes a call reserves of the isolate's memory budget before it runs; by default from its upload sizes (memory-estimate.ts). */
  memory?: (input: z.output<S>) => number;
  handler: (ctx: ToolContext, input: z.output<S>) => Promise<ToolResult>;
}

export function defineTool<S extends z.ZodType>(def: ToolDef<S>): ToolDef<S> {
  return def;
}

/** What a tool does and what each of its operations costs: the OpenAPI operation's and the MCP tool's description. */
export function toolDescription(tool: ToolDef): string {
  const costs = tool.operations.map((o) => `\`${o.key}\` ${o.credits} credits (${o.access})`).join("; ");
  return `${tool.summary}\n\nOperations: ${costs}.`;
}
