import { z } from "zod";
import type { ErrorCode } from "../errors";

// Zod building blocks for multipart fields. A custom issue may carry
// `params.code`, an ErrorCode; the validation hook answers with that code's
// status (400, 415...) instead of the default 422, so each tool's odd status
// codes (docs/reference/errors.md) live in its schema.

const binary = { type: "string", format: "binary" } as const;

export interface UploadRules {
  /** Accepted filename endings, lower case with the dot: [".pdf"]. */
  extensions?: readonly string[];
  /** Code when the name has the wrong ending (default unsupported_media_type). */
  wrongType?: ErrorCode;
  /** Code when the part is missing or not a file (default validation_failed). */
  missing?: ErrorCode;
  /** Code when the file has no bytes (default validation_failed). */
  empty?: ErrorCode;
}

function issue(ctx: z.RefinementCtx, message: string, code: ErrorCode | undefined): void {
  ctx.addIssue({ code: "custom", message, params: code ? { code } : undefined });
}

export function hasExtension(name: string, extensions: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return extensions.some((e) => lower.endsWith(e));
}

/** One uploaded file, checked for presence, filename ending and emptiness. */
export function upload(rules: UploadRules = {}) {
  return z
    .custom<File>()
    .superRefine((v, ctx) => {
      if (!(v instanceof File)) return issue(ctx, "A file upload is required.", rules.missing);
      if (rules.extensions && !hasExtension(v.name, rules.extensions)) {
        return issue(ctx, `The file name must end in ${rules.extensions.join(" or ")}.`, rules.wrongType ?? "unsupported_media_type");
      }
      if (v.size === 0) return issue(ctx, "The file is empty.", rules.empty);
    })
    .meta(binary);
}

/** Repeated file parts under one name, in order. */
export function uploads(rules: UploadRules & { min?: number; tooFew?: ErrorCode } = {}) {
  const one = upload(rules);
  return z
    .preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(one))
    .superRefine((files, ctx) => {
      if (rules.min && files.length < rules.min) issue(ctx, `At least ${rules.min} files are required.`, rules.tooFew);
    })
    .meta({ type: "array", items: binary });
}

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

export function formBool(defaultValue: boolean) {
  return z
    .preprocess((v) => {
      if (typeof v !== "string") return v;
      const s = v.trim().toLowerCase();
      return TRUE.has(s) ? true : FALSE.has(s) ? false : v;
    }, z.boolean())
    .default(defaultValue);
}

function toNumber(v: unknown): unknown {
  return typeof v === "string" && v.trim() !== "" ? Number(v) : v;
}

export function formInt(range: { min?: number; max?: number } = {}) {
  let n = z.number().int();
  if (range.min !== undefined) n = n.min(range.min);
  if (range.max !== undefined) n = n.max(range.max);
  return z.preprocess(toNumber, n);
}

export function formNumber(range: { min?: number; max?: number } = {}) {
  let n = z.number();
  if (range.min !== undefined) n = n.min(range.min);
  if (range.max !== undefined) n = n.max(range.max);
  return z.preprocess(toNumber, n);
}

/** A form field holding JSON; malformed JSON answers `code` (400 by default). */
export function formJson<T extends z.ZodType>(schema: T, code: ErrorCode = "invalid_json") {
  return z
    .unknown()
    .transform((v, ctx) => {
      if (typeof v !== "string") return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        issue(ctx, "This field must be valid JSON.", code);
        return z.NEVER;
      }
    })
    .pipe(schema)
    .meta({ type: "string", contentMediaType: "application/json" });
}
