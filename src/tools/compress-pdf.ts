import { z } from "zod";
import type { Principal } from "../auth/principal";
import { ANONYMOUS_COMPRESSION, LIMITS, PLANS, type CompressionLevel } from "../config";
import { compressDocument } from "../engines/mupdf/compress/compress";
import { pageSimilarity } from "../engines/mupdf/compress/similarity";
import { hasPdfHeader } from "../engines/mupdf/core/sniff";
import { decodeBase64 } from "../engines/text/base64";
import { ApiError } from "../errors";
import { derivedPdfName } from "../storage/outputs";
import { defineTool, type ToolContext } from "./define";

// Compress PDF (docs/reference/pdf-toolkit.md). Beyond the original API: the
// options are honoured and /compression/batch compresses for real, billed per file.

export const compressionOptions = z
  .object({
    preserve_metadata: z.boolean().default(true),
    preserve_annotations: z.boolean().default(true),
    preserve_forms: z.boolean().default(true),
  })
  .nullable()
  .default(null);

type CompressionOptions = z.output<typeof compressionOptions>;

export const compressionItem = {
  file_data: z.string().min(LIMITS.compressMinBase64, `file_data must be at least ${LIMITS.compressMinBase64} characters of Base64.`),
  filename: z.string().regex(/\.pdf$/i, "filename must end in .pdf."),
};

type CompressionItem = { file_data: string; filename: string };

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
  level: z.enum(["basic", "medium", "maximum"]).meta({ description: "Compression level the caller's plan selected." }),
  pages: z.number().int(),
  images_recompressed: z.number().int(),
  original_returned: z.boolean().meta({ description: "True when no smaller file could be made: the input bytes are returned unchanged." }),
});

/** How hard each level works (docs/reference/pdf-toolkit.md, the level table). */
const TIER_POWER: Record<CompressionLevel, number> = { basic: 0.6, medium: 0.8, maximum: 1.0 };

function levelFor(p: Principal): CompressionLevel {
  return p.kind === "anonymous" ? ANONYMOUS_COMPRESSION : PLANS[p.plan].compression;
}

function decodePdf(fileData: string, field: string): Uint8Array {
  const bytes = decodeBase64(fileData);
  if (!bytes) throw new ApiError("invalid_base64", `${field} is not valid Base64.`, { errors: [{ field, message: "Not valid Base64." }] });
  if (bytes.byteLength > LIMITS.fileBytes) throw new ApiError("payload_too_large", `${field} decodes to more than ${LIMITS.fileBytes} bytes.`);
  if (!hasPdfHeader(bytes)) {
    throw new ApiError("validation_failed", `${field} does not decode to a PDF (no %PDF- header).`, { errors: [{ field, message: "Not a PDF." }] });
  }
  return bytes;
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/** `id` is the call's job id, or for a batch item the batch's job id and the item's position. */
async function compressOne(ctx: ToolContext, id: string, item: CompressionItem, field: string, options: CompressionOptions) {
  const started = performance.now();
  const level = levelFor(ctx.principal);
  const input = decodePdf(item.file_data, field);
  const outcome = await compressDocument(input, {
    level,
    preserveMetadata: options?.preserve_metadata ?? true,
    preserveAnnotations: options?.preserve_annotations ?? true,
    preserveForms: options?.preserve_forms ?? true,
  });
  // quality_score is 0.9 when it cannot be measured: no sampled page could be rendered (docs/reference/pdf-toolkit.md).
  const quality = outcome.originalReturned ? 1 : ((await pageSimilarity(input, outcome.data, outcome.changedPages, outcome.bandedImages)) ?? 0.9);
  const name = derivedPdfName(item.filename, "compressed");
  const stored = await ctx.store({ filename: name, contentType: "application/pdf", data: outcome.data }, { temporary: true });
  return {
    compression_id: id,
    status: "completed" as const,
    original_size: input.byteLength,
    compressed_size: outcome.data.byteLength,
    compression_ratio: round(outcome.data.byteLength / input.byteLength, 4),
    quality_score: quality,
    processing_time_ms: Math.round(performance.now() - started),
    download_url: stored.url,
    expires_at: stored.expiresAt ?? new Date(Date.now() + LIMITS.tempUrlSeconds * 1000).toISOString(),
    tier_power_used: TIER_POWER[level],
    // True unless the level was maximum (docs/reference/pdf-toolkit.md). Only images differ between
    // levels, so a document without images could not be compressed more.
    could_compress_more: level !== "maximum" && outcome.imagesExamined > 0,
    level,
    pages: outcome.pages,
    images_recompressed: outcome.imagesRecompressed,
    original_returned: outcome.originalReturned,
  };
}

/** One operation for both routes: a file is a file, alone or in a batch. */
const COMPRESS_OPERATION = { key: "pdf.compress", name: "Compress PDF", credits: 20, access: "free-try" } as const;

export const compressPdf = defineTool({
  id: "compress-pdf",
  name: "Compress PDF",
  method: "post",
  path: "/api/v1/compression/single",
  body: "json",
  summary: "Compress a Base64 PDF at the level of the caller's plan; the link is valid 24 hours.",
  operations: [COMPRESS_OPERATION],
  problems: ["invalid_base64"],
  request: z.object({ ...compressionItem, options: compressionOptions }),
  response: compressionResult,
  async handler(ctx, input) {
    return { body: await compressOne(ctx, ctx.jobId, input, "file_data", input.options) };
  },
});

export const compressPdfBatch = defineTool({
  id: "compress-pdf-batch",
  name: "Compress PDF (batch)",
  method: "post",
  path: "/api/v1/compression/batch",
  body: "json",
  summary: "Compress several Base64 PDFs in one call; one result per file, billed per file. A file that fails fails the call, refunded.",
  operations: [COMPRESS_OPERATION],
  quantity: (i) => i.files.length,
  problems: ["invalid_base64"],
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
  async handler(ctx, input) {
    const results = [];
    // One file at a time: the WASM heap holds one document, not twenty.
    for (const [i, file] of input.files.entries()) {
      results.push({ filename: file.filename, ...(await compressOne(ctx, `${ctx.jobId}-${i + 1}`, file, `files.${i}.file_data`, input.options)) });
    }
    return { body: { batch_id: ctx.jobId, status: "completed", results } };
  },
});
