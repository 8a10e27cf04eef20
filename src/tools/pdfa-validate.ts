import { z } from "zod";
import { pdfUpload415 } from "./common";
import { defineTool } from "./define";

export const pdfaValidate = defineTool({
  id: "pdfa-validate",
  name: "Validate PDF/A",
  method: "post",
  path: "/api/v1/pdf/pdfa/validate",
  body: "multipart",
  summary: "Structural PDF/A check: OutputIntents and XMP identification (not a certified validator).",
  operations: [{ key: "pdf.pdfa_validate", name: "Validate PDF/A", credits: 10, access: "free-try" }],
  request: z.object({ file: pdfUpload415() }),
  // api.md: no credits_charged in the body (the header still carries it).
  response: z.object({
    success: z.boolean(),
    likely_pdfa: z.boolean(),
    has_output_intent: z.boolean(),
    has_xmp_metadata: z.boolean(),
    pdfa_part: z.number().int().nullable(),
    pdfa_conformance: z.string().nullable(),
    note: z.string(),
  }),
});
