import { z } from "zod";
import { pdfUpload415, urlResult } from "./common";
import { defineTool } from "./define";

export const repairPdf = defineTool({
  id: "repair-pdf",
  name: "Repair PDF",
  method: "post",
  path: "/api/v1/pdf/repair",
  body: "multipart",
  summary: "Rebuild a damaged PDF's cross-reference table and objects.",
  operations: [{ key: "pdf.repair", name: "Repair PDF", credits: 20, access: "free-try" }],
  request: z.object({ file: pdfUpload415() }),
  response: z.object({
    ...urlResult,
    pages: z.number().int(),
    original_size: z.number().int(),
    repaired_size: z.number().int(),
  }),
});
