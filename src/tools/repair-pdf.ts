import { z } from "zod";
import { repairPdf as repairDocument } from "../engines/mupdf/repair";
import { derivedPdfName } from "../storage/outputs";
import { pdfUpload415, urlResult } from "./common";
import { defineTool } from "./define";

export const repairPdf = defineTool({
  id: "repair-pdf",
  name: "Repair PDF",
  method: "post",
  path: "/api/v1/pdf/repair",
  body: "multipart",
  summary: "Rebuild a damaged PDF's cross-reference table, page tree and broken streams; unrecoverable files get 422.",
  operations: [{ key: "pdf.repair", name: "Repair PDF", credits: 20, access: "free-try" }],
  // Defaults already fit api.md: corrupt -> 422 unreadable_document, encrypted -> 422.
  request: z.object({ file: pdfUpload415() }),
  response: z.object({
    ...urlResult,
    pages: z.number().int(),
    original_size: z.number().int(),
    repaired_size: z.number().int(),
    damage_found: z.boolean().meta({ description: "False when the file was already sound (it is still rewritten cleanly)." }),
    linearized: z.boolean().meta({ description: "Always false: MuPDF 1.28 cannot write linearized files." }),
  }),
  async handler(ctx, input) {
    const original = new Uint8Array(await input.file.arrayBuffer());
    const outcome = await repairDocument(original);
    const name = derivedPdfName(input.file.name, "repaired");
    const stored = await ctx.store({ filename: name, contentType: "application/pdf", data: outcome.data });
    return {
      body: {
        success: true,
        url: stored.url,
        pages: outcome.pages,
        original_size: original.byteLength,
        repaired_size: outcome.data.byteLength,
        damage_found: outcome.damaged,
        linearized: false,
      },
    };
  },
});
