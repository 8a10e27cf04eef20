import { z } from "zod";
import { visionWorkbookOfPdf } from "../engines/ai/vision-tables";
import { visionModelConfigured } from "../engines/ai/provider";
import { pdfToWorkbook } from "../engines/layout/workbook";
import { ApiError } from "../errors";
import { aiStep } from "./ai-errors";
import { engineField, pdfUpload415 } from "./common";
import { MODEL_PROBLEMS } from "./problems";
import { defineTool } from "./define";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

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
  problems: ["ai_not_configured", ...MODEL_PROBLEMS],
  request: z.object({ file: pdfUpload415(), engine: engineField }),
  response: z.object({
    success: z.boolean(),
    url: z.string().meta({ description: "The .xlsx workbook: one sheet per table, named 'Page N Table M'; with no table, one sheet of text lines per page." }),
    tables_found: z.number().int().meta({ description: "Tables found (ruled tables first, then borderless ones); 0 when the per-page text fallback ran." }),
    sheets: z.number().int().meta({ description: "Sheets in the workbook: tables_found, or the page count for the text fallback." }),
    pages: z.number().int(),
    credits_charged: z.number().int(),
  }),
  async handler(ctx, input) {
    // With no vision model configured a vision request is a 422, refunded (docs/tools/ai.md, Without a model).
    if (input.engine === "vision" && !visionModelConfigured(ctx.env)) {
      throw new ApiError("ai_not_configured", "engine=vision needs an AI vision model, and none is configured here; use engine=auto.");
    }
    const bytes = new Uint8Array(await input.file.arrayBuffer());
    // Vision falls back to the deterministic engine when it finds no table, the vision rate still charged (docs/tools/ai.md).
    const seen = input.engine === "vision" ? await aiStep(() => visionWorkbookOfPdf(ctx.env, bytes)) : null;
    const result = seen ?? (await pdfToWorkbook(bytes));
    const base = input.file.name.replace(/\.pdf$/i, "") || "tables";
    const stored = await ctx.store({ filename: `${base}.xlsx`, contentType: XLSX, data: result.xlsx });
    return { body: { success: true, url: stored.url, tables_found: result.tablesFound, sheets: result.sheets, pages: result.pages } };
  },
});
