import type { Context } from "hono";
import { z } from "zod";
import type { EngineError, EngineErrorKind } from "./engines/errors";

// One table maps every stable error code to its HTTP status and title; routes
// and engines only ever throw ApiError(code, detail).
export const ERROR_CODES = {
  bad_request: [400, "Bad request"],
  invalid_json: [400, "Malformed JSON"],
  invalid_base64: [400, "Invalid Base64"],
  too_few_files: [400, "Not enough files"],
  wrong_password: [400, "Wrong password"],
  no_bookmarks: [400, "No bookmarks"],
  too_many_parts: [400, "Too many output parts"],
  empty_output: [400, "Nothing to output"],
  corrupt_pdf: [400, "Corrupt PDF"],
  unauthorized: [401, "Authentication required"],
  invalid_credentials: [401, "Invalid credentials"],
  magic_link_invalid: [401, "Sign-in link not recognised"],
  magic_link_expired: [401, "Sign-in link expired"],
  magic_link_used: [401, "Sign-in link already used"],
  insufficient_credits: [402, "Insufficient credits"],
  budget_exceeded: [402, "Key credit limit exceeded"],
  forbidden: [403, "Forbidden"],
  csrf_failed: [403, "Cross-site request refused"],
  scope_denied: [403, "Scope does not include this operation"],
  permission_denied: [403, "Permission denied"],
  plan_required: [403, "Plan does not include this feature"],
  key_limit_reached: [403, "Key limit reached"],
  webhook_limit_reached: [403, "Webhook endpoint limit reached"],
  not_found: [404, "Not found"],
  method_not_allowed: [405, "Method not allowed"],
  conflict: [409, "Conflict"],
  idempotency_in_progress: [409, "Request with this Idempotency-Key in progress"],
  last_owner: [409, "The account must keep an owner"],
  webhook_inactive: [409, "Webhook endpoint is inactive"],
  delivery_not_redeliverable: [409, "Delivery cannot be redelivered"],
  gone: [410, "Gone"],
  payload_too_large: [413, "Payload too large"],
  unsupported_media_type: [415, "Unsupported media type"],
  validation_failed: [422, "Validation failed"],
  idempotency_key_reused: [422, "Idempotency-Key used for another request"],
  unsafe_webhook_url: [422, "Webhook URL refused"],
  password_protected: [422, "Password-protected PDF"],
  invalid_date: [422, "Invalid date"],
  invalid_metadata_key: [422, "Invalid metadata key"],
  attachments_required: [422, "No attachments given"],
  attachment_not_found: [422, "Attachment not found"],
  unreadable_document: [422, "Unreadable document"],
  xfa_not_supported: [422, "XFA forms not supported"],
  certificate_password_incorrect: [422, "Certificate password incorrect"],
  certificate_invalid: [422, "Certificate file invalid"],
  certificate_unsupported: [422, "Certificate file not supported"],
  file_unavailable: [422, "File unavailable"],
  too_many_pages: [422, "Too many pages"],
  image_too_large: [422, "Image too large"],
  invalid_image: [422, "Invalid image"],
  unsupported_image_format: [422, "Image format not available"],
  unsupported_conversion: [422, "Unsupported conversion"],
  ai_not_configured: [422, "AI vision not configured"],
  no_extractable_text: [422, "No extractable text"],
  already_searchable: [422, "PDF already has text"],
  url_refused: [422, "URL refused"],
  page_load_failed: [422, "Page could not be loaded"],
  page_load_timeout: [422, "Page load timed out"],
  page_too_large: [422, "Page too large"],
  page_http_error: [422, "Page answered with an HTTP error"],
  page_script_failed: [422, "Page script failed"],
  rate_limited: [429, "Too many requests"],
  request_cancelled: [499, "Client closed the request"],
  internal_error: [500, "Internal error"],
  engine_failed: [500, "Processing failed"],
  service_unavailable: [503, "Service unavailable"],
  memory_busy: [503, "Server busy"],
  llm_not_configured: [503, "AI text model not configured"],
  ai_unavailable: [503, "AI model unavailable"],
  ocr_unavailable: [503, "OCR not available"],
  browser_unavailable: [503, "No browser available"],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * What an engine's typed error means to a caller: what is wrong with the
 * input is a 4xx, never a 500. Anything an engine throws that is not an
 * EngineError is our defect: a 500 internal_error with the request id,
 * logged with its cause and refunded (tools/pipeline.ts).
 */
export const ENGINE_ERROR_CODES: Record<EngineErrorKind, ErrorCode> = {
  encrypted: "password_protected",
  wrong_password: "wrong_password",
  corrupt: "unreadable_document",
  too_large: "too_many_pages",
  unsupported: "unsupported_media_type",
  invalid_input: "validation_failed",
};

export type EngineErrorCodes = Partial<Record<EngineErrorKind, ErrorCode>>;

/** The image tools' declaration: every bad upload is a 422 of its own (docs/reference/images.md, Errors). */
export const IMAGE_ENGINE_ERRORS: EngineErrorCodes = {
  corrupt: "invalid_image",
  too_large: "image_too_large",
  unsupported: "unsupported_image_format",
  invalid_input: "validation_failed",
};

/** The API error for an engine error, with a tool's declared overrides. */
export function engineApiError(err: EngineError, overrides: EngineErrorCodes = {}): ApiError {
  return new ApiError(overrides[err.kind] ?? ENGINE_ERROR_CODES[err.kind], err.message);
}

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, detail: string, extra: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_CODES[code][0];
    this.errors = extra.errors;
    this.headers = extra.headers;
  }
}

/**
 * The problem+json body of every error answer: the runtime builds it, the
 * OpenAPI document's Problem component and the client's type are emitted from
 * it, and tests parse answers with it.
 */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int().min(100).max(599),
    detail: z.string(),
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
    request_id: z.string(),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe("Per-field messages of a validation failure."),
  })
  .describe("RFC 9457 problem details with a stable `code` (docs/reference/errors.md).");
export type Problem = z.output<typeof Problem>;

export function problemBody(err: ApiError, requestId: string): Problem {
  const [, title] = ERROR_CODES[err.code];
  const body: Problem = {
    type: `https://docs.docapi.dev/errors/${err.code}`,
    title,
    status: err.status,
    detail: err.message,
    code: err.code,
    request_id: requestId,
  };
  if (err.errors?.length) body.errors = err.errors;
  return body;
}

/** Writes an RFC 9457 problem+json response for any thrown value. */
export function problemResponse(c: Context, thrown: unknown): Response {
  const err = thrown instanceof ApiError ? thrown : new ApiError("internal_error", "An unexpected error occurred.");
  if (!(thrown instanceof ApiError)) console.error("unhandled error", c.get("requestId"), thrown);
  const headers = new Headers({ "Content-Type": "application/problem+json" });
  for (const [k, v] of Object.entries(err.headers ?? {})) headers.set(k, v);
  return new Response(JSON.stringify(problemBody(err, c.get("requestId") ?? "")), { status: err.status, headers });
}
