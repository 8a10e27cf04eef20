import type { z } from "zod";
import { LIMITS } from "../config";
import { ApiError, ERROR_CODES, type ErrorCode, type FieldError } from "../errors";
import { reserveMemory } from "../runtime/memory";

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

const MiB = 1024 * 1024;
/** What a body costs while it is parsed: its bytes, and the parsed copy (form parts, or the JSON text and its values). */
const bodyCost = (bytes: number) => 2 * bytes;
/** The first step of a body of undeclared length (chunked); the reservation grows as it arrives. */
const UNDECLARED_STEP = MiB;

/** The memory to admit for a request's body before it is read (tools/pipeline.ts). */
export function bodyReservation(req: Request): number {
  const length = declaredLength(req);
  return bodyCost(Math.min(length ?? UNDECLARED_STEP, LIMITS.requestBytes));
}

const tooLarge = () => new ApiError("payload_too_large", `The request body exceeds ${LIMITS.requestBytes} bytes.`);

/**
 * Reads and parses a multipart or JSON body, enforcing the byte limit first.
 * A body with a declared length is parsed as it streams (HTTP framing ends
 * it there, and the caller admitted its size); one without (chunked) is
 * counted as it arrives, the memory reservation raised with it, and cut off
 * at the limit, so no body is ever held unaccounted.
 */
export async function readBody(req: Request, kind: "multipart" | "json" | "json-or-multipart", opts: { keepEmpty?: boolean } = {}): Promise<unknown> {
  const length = declaredLength(req);
  if (length !== null && length > LIMITS.requestBytes) throw tooLarge();
  const type = (req.headers.get("Content-Type") ?? "").toLowerCase();
  const isJson = type.includes("application/json");
  const isForm = type.includes("multipart/form-data") || type.includes("application/x-www-form-urlencoded");
  if (kind === "json" && !isJson) throw new ApiError("unsupported_media_type", "This endpoint expects application/json.");
  if (kind === "multipart" && !isForm) throw new ApiError("unsupported_media_type", "This endpoint expects multipart/form-data.");
  if (kind === "json-or-multipart" && !isJson && !isForm) {
    throw new ApiError("unsupported_media_type", "This endpoint expects application/json or multipart/form-data.");
  }
  const body = length === null && req.body ? new Request(req.url, { method: "POST", headers: req.headers, body: await readCounted(req.body) }) : req;
  return isJson ? parseJson(body) : parseForm(body, opts.keepEmpty ?? false);
}

async function readCounted(stream: ReadableStream<Uint8Array>): Promise<Blob> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  let admitted = UNDECLARED_STEP;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > LIMITS.requestBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (received > admitted) {
      admitted = Math.min(LIMITS.requestBytes, admitted * 2);
      await reserveMemory(bodyCost(admitted));
    }
    chunks.push(value);
  }
  return new Blob(chunks);
}

async function parseJson(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.length > LIMITS.requestBytes) throw tooLarge();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
}

async function parseForm(req: Request, keepEmpty: boolean): Promise<unknown> {
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    throw new ApiError("bad_request", "The multipart body could not be parsed.");
  }
  return formToObject(form, keepEmpty);
}

/** Repeated names become arrays; empty text fields count as absent unless `keepEmpty` (a tool where "" means something). */
export function formToObject(form: FormData, keepEmpty = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string" && value === "" && !keepEmpty) continue;
    if (typeof value !== "string" && value.size > LIMITS.fileBytes) {
      throw new ApiError("payload_too_large", `The file '${value.name}' exceeds ${LIMITS.fileBytes} bytes.`);
    }
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
