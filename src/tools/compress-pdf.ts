import { z } from "zod";
import { LIMITS } from "../config";
import { defineTool } from "./define";

export const compressionOptions = z
  .object({
    preserve_metadata: z.boolean().default(true),
    preserve_annotations: z.boolean().default(true),
    preserve_forms: z.boolean().default(true),
  })
  .nullable()
  .default(null);

export const compressionItem = {
  file_data: z.string().min(LIMITS.compressMinBase64, `file_data must be at least ${LIMITS.compressMinBase64} characters of Base64.`),
  filename: z.string().regex(/\.pdf$/i, "filename must end in .pdf."),
};

export const compressionResult = z.object({
  compression_id: z.string(),
  status: z.literal("completed"),
  original_size: z.number().int(),
  compressed_size: z.number().int(),
  compression_ratio: z.number(),
  quality_score: z.number(),
  processing_time_ms: z.number().int(),
  download_url: z.string(),
  expires_at: z.string(),
  tier_power_used: z.number(),
  could_compress_more: z.boolean(),
});

export const compressPdf = defineTool({
  id: "compress-pdf",
  name: "Compress PDF",
  method: "post",
  path: "/api/v1/compression/single",
  body: "json",
  summary: "Compress a Base64 PDF at the level of the caller's plan; the link is valid 24 hours.",
  operations: [{ key: "pdf.compress", name: "Compress PDF", credits: 20, access: "free-try" }],
  request: z.object({ ...compressionItem, options: compressionOptions }),
  response: compressionResult,
});

export const compressPdfBatch = defineTool({
  id: "compress-pdf-batch",
  name: "Compress PDF (batch)",
  method: "post",
  path: "/api/v1/compression/batch",
  body: "json",
  summary: "Compress several Base64 PDFs in one call; billed per file.",
  operations: [{ key: "pdf.compress", name: "Compress PDF", credits: 20, access: "free-try" }],
  quantity: (i) => i.files.length,
  request: z.object({
    files: z.array(z.object(compressionItem)).min(1).max(20),
    options: compressionOptions,
  }),
  response: z.object({
    batch_id: z.string(),
    status: z.literal("completed"),
    results: z.array(compressionResult.extend({ filename: z.string() })),
    credits_charged: z.number().int(),
  }),
});
