import { z } from "zod";
import { validatePdfA } from "../engines/mupdf/inspect/pdfa";
import { pdfUpload415 } from "./common";
import { defineTool } from "./define";

const NOTE =
  "Structural check only, not a certified validator: it looks for a GTS_PDFA1 OutputIntent with an embedded ICC profile, " +
  "an XMP pdfaid declaration and Info/XMP agreement. Fonts, colour, transparency and the ICC profile itself are not checked; use veraPDF for conformance.";

export const pdfaValidate = defineTool({
  id: "pdfa-validate",
  name: "Validate PDF/A",
  method: "post",
  path: "/api/v1/pdf/pdfa/validate",
  body: "multipart",
  summary: "Structural PDF/A check: OutputIntents and XMP identification (not a certified validator).",
  operations: [{ key: "pdf.pdfa_validate", name: "Validate PDF/A", credits: 10, access: "free-try" }],
  // Validating a corrupt PDF is a 500 (as problem+json; docs/reference/errors.md).
  engineErrors: { corrupt: "engine_failed" },
  request: z.object({ file: pdfUpload415() }),
  // No credits_charged in the body; the header still carries it (docs/reference/pdf-toolkit.md).
  response: z.object({
    success: z.boolean(),
    likely_pdfa: z.boolean(),
    has_output_intent: z.boolean(),
    has_xmp_metadata: z.boolean(),
    pdfa_part: z.number().int().nullable(),
    pdfa_conformance: z.string().nullable(),
    issues: z.array(z.string()).meta({ description: "Why likely_pdfa is false, one entry per failed check; empty when it is true." }),
    note: z.string(),
  }),
  async handler(_ctx, input) {
    const report = await validatePdfA(new Uint8Array(await input.file.arrayBuffer()));
    return {
      body: {
        success: true,
        likely_pdfa: report.likelyPdfA,
        has_output_intent: report.hasOutputIntent,
        has_xmp_metadata: report.hasXmpMetadata,
        pdfa_part: report.part,
        pdfa_conformance: report.conformance,
        issues: report.issues,
        note: NOTE,
      },
    };
  },
});
