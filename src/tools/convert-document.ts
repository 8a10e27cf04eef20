import { z } from "zod";
import { engineField } from "./common";
import { defineTool } from "./define";
import { formJson, upload } from "./fields";

export const convertDocument = defineTool({
  id: "convert-document",
  name: "Convert document",
  method: "post",
  path: "/api/v1/conversion/single",
  body: "multipart",
  summary: "Convert between PDF, DOCX, TXT and images; the source format comes from the filename.",
  operations: [
    { key: "convert.document", name: "Convert document", credits: 40, access: "free-try" },
    { key: "convert.pdf_to_docx.ai", name: "Vision PDF to DOCX", credits: 200, access: "plan:paid" },
  ],
  selectOperation: (i) => (i.engine === "vision" && i.target_format === "docx" && /\.pdf$/i.test(i.file.name) ? "convert.pdf_to_docx.ai" : "convert.document"),
  request: z.object({
    file: upload({ missing: "bad_request", empty: "bad_request" }),
    target_format: z
      .string()
      .min(1)
      .transform((s) => s.trim().toLowerCase()),
    quality_preset: z.enum(["standard", "premium", "maximum"]).default("standard"),
    engine: engineField,
    custom_settings: formJson(z.unknown()).optional(),
  }),
  response: z.object({
    conversion_id: z.string(),
    status: z.literal("completed"),
    output_file_url: z.string(),
    quality_score: z.number(),
    processing_time: z.number(),
    engine_used: z.string(),
    metadata: z.object({
      source_format: z.string(),
      target_format: z.string(),
      quality_score: z.number(),
      processing_time: z.number(),
      engine_used: z.string(),
      file_size: z.number().int(),
    }),
    created_at: z.string(),
  }),
});
