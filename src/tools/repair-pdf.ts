import { z } from "zod";
import { type RecoveryRoad, repairDocument } from "../engines/mupdf/repair/repair";
import { derivedPdfName } from "../storage/outputs";
import { pdfUpload415, urlResult } from "./common";
import { defineTool } from "./define";

const MiB = 1024 * 1024;

export const repairPdf = defineTool({
  id: "repair-pdf",
  name: "Repair PDF",
  method: "post",
  path: "/api/v1/pdf/repair",
  body: "multipart",
  summary: "Rebuild a damaged PDF's cross-reference table, page tree and broken streams, written linearized; unrecoverable files get 422.",
  operations: [{ key: "pdf.repair", name: "Repair PDF", credits: 20, access: "free-try" }],
  // The defaults already fit docs/reference/pdf-toolkit.md: corrupt -> 422 unreadable_document, encrypted -> 422.
  request: z.object({ file: pdfUpload415() }),
  response: z.object({
    ...urlResult,
    pages: z.number().int(),
    original_size: z.number().int(),
    repaired_size: z.number().int(),
    damage_found: z.boolean().meta({ description: "False when the file was already sound (it is still rewritten cleanly)." }),
    linearized: z.boolean().meta({
      description: "Whether the output is linearized (fast web view), read from the file written; false only if qpdf could not linearize it.",
    }),
    images_replaced: z
      .number()
      .int()
      .meta({ description: "Images whose data could not be decoded, replaced by a 1x1 grey placeholder filling the same box; the pages are kept." }),
    recovered_by: z.enum(["mupdf", "rebuilt_objects", "rebuilt_pages"] satisfies RecoveryRoad[]).meta({
      description:
        "Which reconstruction produced the file: MuPDF's; or, when MuPDF found no page, the file's objects rewritten under an exact cross-reference table and a fresh page tree, as they were (rebuilt_objects) or with the page dictionaries rebuilt from their readable parts (rebuilt_pages).",
    }),
  }),
  // MuPDF's working set (8 MB + 4x the file, the default) plus a qpdf instance
  // for linearizing (16 MB heap at start) and the in-memory files qpdf reads
  // and writes (input and output, about 3x the file).
  memory: (input) => 24 * MiB + 7 * input.file.size,
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
        linearized: outcome.linearized,
        images_replaced: outcome.imagesReplaced,
        recovered_by: outcome.road,
      },
    };
  },
});
