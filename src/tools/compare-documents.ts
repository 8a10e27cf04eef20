import { z } from "zod";
import { defineTool } from "./define";
import { upload } from "./fields";

export const compareDocuments = defineTool({
  id: "compare-documents",
  name: "Compare documents",
  method: "post",
  path: "/api/v1/analyze/compare",
  body: "multipart",
  summary: "Line-level text diff of two PDF, DOCX or TXT documents.",
  operations: [{ key: "analyze.compare", name: "Compare documents", credits: 40, access: "login" }],
  request: z.object({
    file1: upload({ extensions: [".pdf", ".docx", ".txt"] }),
    file2: upload(),
    comparison_type: z.enum(["text", "structure", "full"]).default("text"),
  }),
  response: z.object({
    success: z.boolean(),
    result: z.object({
      similarity_score: z.number(),
      differences: z.object({
        added: z.array(z.string()),
        removed: z.array(z.string()),
        modified: z.array(z.object({ before: z.string(), after: z.string() })),
      }),
      summary: z.object({ total_differences: z.number().int(), similarity_percentage: z.number() }),
      total_differences: z.number().int(),
    }),
    meta: z.object({
      file1_pages: z.number().int(),
      file2_pages: z.number().int(),
      comparison_type: z.string(),
      processing_time_ms: z.number().int(),
    }),
    credits_charged: z.number().int(),
  }),
});
