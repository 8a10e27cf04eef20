import { z } from "zod";
import { defineTool } from "./define";
import { upload } from "./fields";

export const pdfMetadata = defineTool({
  id: "pdf-metadata",
  name: "PDF metadata",
  method: "post",
  path: "/api/v1/analyze/metadata",
  body: "multipart",
  summary: "Read metadata and counts from a PDF, DOCX or TXT document.",
  operations: [{ key: "analyze.metadata", name: "PDF metadata", credits: 10, access: "free-try" }],
  request: z.object({ file: upload({ extensions: [".pdf", ".docx", ".txt"], wrongType: "unsupported_media_type" }) }),
  response: z.object({
    success: z.boolean(),
    metadata: z.object({
      pages: z.number().int(),
      title: z.string().nullable(),
      author: z.string().nullable(),
      subject: z.string().nullable(),
      keywords: z.array(z.string()),
      is_encrypted: z.boolean(),
      has_images: z.boolean(),
      image_count: z.number().int(),
      word_count: z.number().int(),
      character_count: z.number().int(),
      creation_date: z.string().nullable(),
      modification_date: z.string().nullable(),
      language: z.null(),
    }),
    info: z.object({
      file_size: z.number().int(),
      format: z.string(),
      filename: z.string(),
      processing_time_ms: z.number().int(),
    }),
    credits_charged: z.number().int(),
  }),
});
