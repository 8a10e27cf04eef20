import { z } from "zod";
import { engineField, pdfUpload415 } from "./common";
import { defineTool } from "./define";

export const pdfToXlsx = defineTool({
  id: "pdf-to-xlsx",
  name: "PDF to Excel",
  method: "post",
  path: "/api/v1/pdf/to-xlsx",
  body: "multipart",
  summary: "Extract tables from a PDF into an .xlsx workbook, one sheet per table.",
  operations: [
    { key: "pdf.to_xlsx", name: "PDF to Excel", credits: 40, access: "free-try" },
    { key: "pdf.to_xlsx.ai", name: "PDF to Excel with vision", credits: 200, access: "plan:paid" },
  ],
  selectOperation: (i) => (i.engine === "vision" ? "pdf.to_xlsx.ai" : "pdf.to_xlsx"),
  request: z.object({ file: pdfUpload415(), engine: engineField }),
  response: z.object({
    success: z.boolean(),
    url: z.string(),
    tables_found: z.number().int(),
    sheets: z.number().int(),
    pages: z.number().int(),
    credits_charged: z.number().int(),
  }),
});
