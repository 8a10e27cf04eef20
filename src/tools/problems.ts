import { ENGINE_ERROR_CODES, ERROR_CODES, type ErrorCode } from "../errors";
import type { ToolDef } from "./define";

/**
 * What every tool call can answer before or around its handler: credentials
 * (auth/identify.ts, with the session's CSRF check), access and scope
 * (access.ts), the rate limit, reading and validating the body
 * (http/validate.ts, tools/fields.ts), the Idempotency-Key (http/idempotency.ts),
 * memory admission (runtime/memory.ts), the debit and the catch-all 500, and
 * the 503 of a misconfigured deployment (settings.ts).
 */
export const PIPELINE_PROBLEMS: readonly ErrorCode[] = [
  "bad_request",
  "invalid_json",
  "unauthorized",
  "invalid_credentials",
  "insufficient_credits",
  "budget_exceeded",
  "csrf_failed",
  "scope_denied",
  "permission_denied",
  "idempotency_in_progress",
  "payload_too_large",
  "unsupported_media_type",
  "validation_failed",
  "idempotency_key_reused",
  "rate_limited",
  "internal_error",
  "service_unavailable",
  "memory_busy",
];

/** What engines/browser gives (errors.ts there): every tool that renders a page in the browser. */
export const BROWSER_PROBLEMS: readonly ErrorCode[] = [
  "url_refused",
  "page_load_failed",
  "page_load_timeout",
  "page_too_large",
  "page_http_error",
  "page_script_failed",
  "browser_unavailable",
];

/** A model that failed (tools/ai-errors.ts) and OCR without its binding (engines/ocr/remote.ts). */
export const MODEL_PROBLEMS: readonly ErrorCode[] = ["ai_unavailable", "ocr_unavailable"];

/** The codes a tool's EngineErrors map to (errors.ts's defaults with the tool's overrides). */
function engineProblems(tool: ToolDef): ErrorCode[] {
  return Object.values({ ...ENGINE_ERROR_CODES, ...tool.engineErrors }).filter((c): c is ErrorCode => c !== undefined);
}

/** Every problem code a tool call can answer with, sorted by status then name. */
export function toolProblemCodes(tool: ToolDef): ErrorCode[] {
  const codes = new Set<ErrorCode>([...PIPELINE_PROBLEMS, ...engineProblems(tool), ...(tool.problems ?? [])]);
  if (tool.operations.some((o) => o.access.startsWith("plan:"))) codes.add("plan_required");
  return [...codes].sort((a, b) => ERROR_CODES[a][0] - ERROR_CODES[b][0] || a.localeCompare(b));
}
