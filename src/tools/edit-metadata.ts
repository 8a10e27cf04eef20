import { z } from "zod";
import { parseIsoDate } from "../engines/mupdf/edit/dates";
import { RESERVED_KEYS, writeMetadata } from "../engines/mupdf/edit/metadata";
import { derivedPdfName } from "../storage/outputs";
import { pdfBytesOf, pdfUpload415 } from "./common";
import { defineTool } from "./define";
import { formJson } from "./fields";

const MAX_CHARS = 8000;
const MAX_CUSTOM = 100;
// XML 1.0 cannot carry C0 controls other than tab and line breaks, and the XMP packet must hold every value.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
// A PDF name written without # escapes (ISO 32000-1 7.3.5): regular characters only, at most 127 bytes.
const PDF_NAME = /^[\x21-\x7e]{1,127}$/;
const DELIMITERS = /[()<>[\]{}/%#]/;
// BCP 47 well-formedness, loosely: a primary subtag (or x-/i-) and subtags of 1 to 8 letters or digits.
const BCP47 = /^(?:[A-Za-z]{2,8}|[xXiI])(?:-[A-Za-z0-9]{1,8})*$/;

const blankToNull = (v: string): string | null => (v.trim() === "" ? null : v);

/** A text field: a value sets it, an empty string removes it. */
const textField = (what: string) =>
  z
    .string()
    .max(MAX_CHARS)
    .refine((v) => !CONTROL.test(v), `${what} must not contain control characters.`)
    .transform(blankToNull)
    .optional()
    .meta({ description: `${what}; an empty value removes it.` });

const dateField = (what: string) =>
  z
    .string()
    .transform((v, ctx) => {
      if (v.trim() === "") return null;
      const parts = parseIsoDate(v);
      if (parts) return parts;
      ctx.addIssue({
        code: "custom",
        message: `${what} must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T10:20:30+02:00.`,
        params: { code: "invalid_date" },
      });
      return z.NEVER;
    })
    .optional()
    .meta({ type: "string", description: `${what} (ISO 8601); an empty value removes it.` });

const customField = formJson(
  z.record(
    z.string(),
    z
      .string()
      .max(MAX_CHARS)
      .refine((v) => !CONTROL.test(v), "Values must not contain control characters."),
  ),
)
  .superRefine((obj, ctx) => {
    const keys = Object.keys(obj);
    if (keys.length > MAX_CUSTOM) ctx.addIssue({ code: "custom", message: `At most ${MAX_CUSTOM} custom keys.` });
    for (const key of keys) {
      const why =
        !PDF_NAME.test(key) || DELIMITERS.test(key)
          ? "is not a PDF name (printable ASCII without spaces or ()<>[]{}/%#, at most 127)"
          : RESERVED_KEYS.has(key)
            ? "has a field of its own"
            : null;
      if (why) ctx.addIssue({ code: "custom", path: [key], message: `The custom key '${key}' ${why}.`, params: { code: "invalid_metadata_key" } });
    }
  })
  .transform((obj) => Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, blankToNull(v)])))
  .optional()
  .meta({
    type: "string",
    contentMediaType: "application/json",
    description: 'Extra Info keys as a JSON object of strings, e.g. {"Department":"Legal"}; an empty value removes the key.',
  });

const metadataOut = z.object({
  title: z.string().nullable(),
  author: z.string().nullable(),
  subject: z.string().nullable(),
  keywords: z.array(z.string()),
  creator: z.string().nullable(),
  producer: z.string().nullable(),
  creation_date: z.string().nullable().meta({ description: "ISO 8601 with the zone the file records, if any." }),
  modification_date: z.string().nullable(),
  language: z.string().nullable(),
  custom: z.record(z.string(), z.string()).meta({ description: "Every other string key of the Info dictionary." }),
  xmp: z.enum(["updated", "created"]).meta({ description: "Whether the file's XMP packet was updated or, having none, given one." }),
});

export const editMetadata = defineTool({
  id: "edit-metadata",
  name: "Edit metadata",
  method: "post",
  path: "/api/v1/pdf/metadata",
  body: "multipart",
  // An empty field removes the value it names.
  keepEmptyFields: true,
  summary:
    "Set or remove a PDF's title, author, subject, keywords, creator, producer, dates, language and custom Info keys; the XMP packet is kept in agreement. Beyond the original API contract.",
  operations: [{ key: "pdf.metadata.write", name: "Edit metadata", credits: 10, access: "free-try" }],
  problems: ["invalid_date", "invalid_metadata_key"],
  request: z.object({
    file: pdfUpload415(),
    title: textField("The title"),
    author: textField("The author"),
    subject: textField("The subject"),
    keywords: z
      .string()
      .max(MAX_CHARS)
      .refine((v) => !CONTROL.test(v), "Keywords must not contain control characters.")
      .transform((v) => {
        const list = v
          .split(",")
          .map((k) => k.trim())
          .filter(Boolean);
        return list.length ? [...new Set(list)] : null;
      })
      .optional()
      .meta({ description: "Comma-separated keywords; an empty value removes them." }),
    creator: textField("The creating application"),
    producer: textField("The producing application"),
    creation_date: dateField("creation_date"),
    modification_date: dateField("modification_date").meta({ type: "string", description: "ISO 8601; default now (UTC); an empty value removes it." }),
    language: z
      .string()
      .refine((v) => v.trim() === "" || BCP47.test(v.trim()), "language must be a BCP 47 tag such as en, de-CH or zh-Hant-TW.")
      .transform((v) => blankToNull(v.trim()))
      .optional()
      .meta({ description: "BCP 47 language tag, written to the catalog's /Lang and dc:language; an empty value removes it." }),
    // An empty custom field means no custom keys, not malformed JSON.
    custom: z.preprocess((v) => (v === "" ? undefined : v), customField),
  }),
  response: z.object({
    job_id: z.string(),
    status: z.literal("completed"),
    success: z.boolean(),
    file_url: z.string(),
    url: z.string().meta({ description: "The same link as file_url." }),
    metadata: metadataOut,
    credits_charged: z.number().int(),
  }),
  async handler(ctx, input) {
    const data = await pdfBytesOf(input.file);
    const { data: out, metadata } = await writeMetadata(data, {
      title: input.title,
      author: input.author,
      subject: input.subject,
      keywords: input.keywords,
      creator: input.creator,
      producer: input.producer,
      creationDate: input.creation_date,
      modificationDate: input.modification_date,
      language: input.language,
      custom: input.custom,
    });
    const stored = await ctx.store({ filename: derivedPdfName(input.file.name, "metadata"), contentType: "application/pdf", data: out });
    const { creationDate, modificationDate, ...rest } = metadata;
    return {
      body: {
        job_id: ctx.jobId,
        status: "completed",
        success: true,
        file_url: stored.url,
        url: stored.url,
        metadata: { ...rest, creation_date: creationDate, modification_date: modificationDate },
      },
    };
  },
});
