import { z } from "zod";
import { engineField, pdfUpload415 } from "./common";
import { defineTool } from "./define";
import { formJson } from "./fields";

export const aiExtract = defineTool({
  id: "ai-extract",
  name: "AI extract data",
  method: "post",
  path: "/api/v1/ai/extract-data",
  body: "multipart",
  summary: "Extract structured JSON from a PDF with a preset or your JSON schema.",
  operations: [
    { key: "ai.extract", name: "AI extraction", credits: 100, access: "plan:aiExtract" },
    { key: "ai.extract.ai", name: "AI extraction with vision", credits: 200, access: "plan:aiExtract" },
  ],
  selectOperation: (i) => (i.engine === "vision" ? "ai.extract.ai" : "ai.extract"),
  request: z.object({
    file: pdfUpload415(),
    preset: z.string().default("auto"),
    schema: formJson(z.unknown(), "validation_failed").optional(),
    engine: engineField,
  }),
  response: z.object({
    success: z.boolean(),
    data: z.unknown(),
    credits_charged: z.number().int(),
    engine: z.string(),
    preset: z.string().nullable(),
    had_schema: z.boolean(),
    parsed_ok: z.boolean(),
    processing_time_ms: z.number().int(),
  }),
});
