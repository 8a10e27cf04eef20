import { z } from "zod";
import { pdfUpload415 } from "./common";
import { defineTool } from "./define";

export const redactPii = defineTool({
  id: "redact",
  name: "Redact PII",
  method: "post",
  path: "/api/v1/redact",
  body: "multipart",
  summary: "Remove personal data (cards, IBANs, SSNs, e-mails, phones...) from a PDF's text.",
  operations: [{ key: "pdf.redact", name: "Redact PII", credits: 40, access: "login" }],
  request: z.object({ file: pdfUpload415(), entity_types: z.string().optional() }),
  response: z.object({
    success: z.boolean(),
    url: z.string(),
    redactions_made: z.number().int(),
    entities: z.record(z.string(), z.number().int()),
    text_fully_removed: z.boolean(),
    pages: z.number().int(),
    credits_charged: z.number().int(),
  }),
});
