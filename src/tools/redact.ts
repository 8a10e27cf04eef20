import { z } from "zod";
import { redactPdf } from "../engines/mupdf/redact/redact";
import { ENTITY_TYPES, isEntityType, type EntityType } from "../engines/pii/entity-types";
import { derivedPdfName } from "../storage/outputs";
import { pdfBytesOf, pdfUpload415 } from "./common";
import { defineTool } from "./define";

/** Comma-separated, upper-cased and validated; an unknown type is a 422; absent means all (docs/reference/pdf-stamps.md). */
const entityTypesField = z
  .string()
  .optional()
  .transform((raw, ctx): EntityType[] => {
    if (raw === undefined) return [...ENTITY_TYPES];
    const names = raw
      .split(",")
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean);
    const unknown = names.filter((n) => !isEntityType(n));
    if (unknown.length || !names.length) {
      ctx.addIssue({ code: "custom", message: `Unknown entity type ${unknown.join(", ") || "(none given)"}; use ${ENTITY_TYPES.join(", ")}.` });
      return z.NEVER;
    }
    return ENTITY_TYPES.filter((t) => names.includes(t));
  });

export const redactPii = defineTool({
  id: "redact",
  name: "Redact PII",
  method: "post",
  path: "/api/v1/redact",
  body: "multipart",
  summary: "Remove personal data (cards, IBANs, SSNs, e-mails, phones...) from a PDF's text.",
  operations: [{ key: "pdf.redact", name: "Redact PII", credits: 40, access: "login" }],
  request: z.object({ file: pdfUpload415(), entity_types: entityTypesField }),
  response: z.object({
    success: z.boolean(),
    url: z.string(),
    redactions_made: z.number().int(),
    entities: z.record(z.string(), z.number().int()),
    text_fully_removed: z.boolean(),
    pages: z.number().int(),
    credits_charged: z.number().int(),
  }),
  async handler(ctx, input) {
    const data = await pdfBytesOf(input.file);
    const result = await redactPdf(data, input.entity_types);
    const name = derivedPdfName(input.file.name, "redacted");
    const stored = await ctx.store({ filename: name, contentType: "application/pdf", data: result.data });
    return {
      body: {
        success: true,
        url: stored.url,
        redactions_made: result.boxes,
        entities: result.entities,
        text_fully_removed: result.fullyRemoved,
        pages: result.pages,
      },
    };
  },
});
