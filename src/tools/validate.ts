import type { z } from "zod";
import { LIMITS } from "../config";
import { ApiError, ERROR_CODES, type ErrorCode, type FieldError } from "../errors";

/** The one validation hook: zod issues -> problem+json with per-field errors. */
export function validationError(error: z.ZodError): ApiError {
  const errors: FieldError[] = error.issues.map((i) => ({
    field: i.path.map(String).join(".") || "(body)",
    message: i.message,
  }));
  const special = error.issues
    .map((i) => (i.code === "custom" ? (i.params as { code?: string } | undefined)?.code : undefined))
    .find((c): c is ErrorCode => typeof c === "string" && c in ERROR_CODES);
  const code: ErrorCode = special ?? "validation_failed";
  const first = error.issues[0];
  const detail = first ? `${errors[0].field}: ${first.message}` : "The request is invalid.";
  return new ApiError(code, detail, { errors });
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

function declaredLength(req: Request): number | null {
  const v = req.headers.get("Content-Length");
  return v && /^\d+$/.test(v) ? Number(v) : null;
}

/** Reads a multipart or JSON body into a plain object, enforcing byte limits first. */
export async function readBody(req: Request, kind: "multipart" | "json"): Promise<unknown> {
  const length = declaredLength(req);
  if (length !== null && length > LIMITS.requestBytes) {
    throw new ApiError("payload_too_large", `The request body exceeds ${LIMITS.requestBytes} bytes.`);
  }
  const type = (req.headers.get("Content-Type") ?? "").toLowerCase();
  if (kind === "json") {
    if (!type.includes("application/json")) throw new ApiError("unsupported_media_type", "This endpoint expects application/json.");
    const text = await req.text();
    if (text.length > LIMITS.requestBytes) throw new ApiError("payload_too_large", "The request body is too large.");
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ApiError("invalid_json", "The request body is not valid JSON.");
    }
  }
  if (!type.includes("multipart/form-data") && !type.includes("application/x-www-form-urlencoded")) {
    throw new ApiError("unsupported_media_type", "This endpoint expects multipart/form-data.");
  }
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    throw new ApiError("bad_request", "The multipart body could not be parsed.");
  }
  return formToObject(form);
}

/** Repeated names become arrays; empty text fields count as absent. */
export function formToObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string" && value === "") continue;
    if (typeof value !== "string" && value.size > LIMITS.fileBytes) {
      throw new ApiError("payload_too_large", `The file '${value.name}' exceeds ${LIMITS.fileBytes} bytes.`);
    }
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
