import { z } from "zod";
import { EngineError } from "../engines/errors";
import { EXTENSION, MIME, type ImageFormat, type ImageResult } from "../engines/images";
import { hasPdfHeader } from "../engines/mupdf/core/sniff";
import type { ToolContext } from "./define";
import { upload } from "./fields";

// Schema pieces several tool declarations share.

/** A PDF upload whose missing part or wrong name answers 415 (the tools whose reference page says so). */
export const pdfUpload415 = () => upload({ extensions: [".pdf"], wrongType: "unsupported_media_type", missing: "unsupported_media_type" });

/** `auto` or `vision`; anything else 422. */
export const engineField = z.enum(["auto", "vision"]).default("auto");

export const WATERMARK_POSITIONS = ["center", "top-left", "top-right", "bottom-left", "bottom-right", "top-center", "bottom-center"] as const;

/** Positions accept hyphen and underscore spellings in any case. */
export function positionField<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase().replace(/_/g, "-") : v), z.enum(values)).default(fallback as never);
}

export const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, "Use # followed by 6 hex digits.");

export const credits = z.number().int();

/** success + url + credits, the shape most PDF tools answer with. */
export const urlResult = {
  success: z.boolean(),
  url: z.string(),
  credits_charged: credits,
};

export const imageResponse = z.object({
  success: z.boolean(),
  url: z.string(),
  meta: z.object({
    original_size: z.number().int().optional(),
    output_size: z.number().int(),
    format: z.string().meta({ description: "Output format: jpeg, png, webp, avif, gif, bmp or tiff." }),
    width: z.number().int(),
    height: z.number().int(),
    original_dimensions: z.string().optional().meta({ description: "Input size as displayed, 'WxH'." }),
    processing_time_ms: z.number().int(),
    notes: z.array(z.string()).optional().meta({ description: "What the caller should know, e.g. that only the first frame of an animated GIF was used." }),
  }),
  credits_charged: credits,
});

export const IMAGE_FORMATS = ["png", "jpg", "jpeg", "webp", "avif", "bmp", "tiff", "gif"] as const;
export const quality = (fallback: number) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v), z.number().int().min(1).max(100)).default(fallback);

/** target_format: case-insensitive, "jpg" and "jpeg" both name JPEG; answers the engine's format name. */
export const targetFormat = (allowed: readonly (typeof IMAGE_FORMATS)[number][]) =>
  z
    .preprocess(
      (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
      z.enum(allowed as [string, ...string[]], { message: `Use one of: ${allowed.join(", ")}.` }),
    )
    .transform((v): ImageFormat => (v === "jpg" ? "jpeg" : (v as ImageFormat)));

/** Stores an image tool's output and answers the image tools' body (docs/reference/images.md). */
export async function imageBody(ctx: ToolContext, file: File, result: ImageResult, startedAt: number, withOriginal: boolean) {
  const base = file.name.replace(/\.[^.]*$/, "") || "image";
  const stored = await ctx.store({ filename: `${base}.${EXTENSION[result.format]}`, contentType: MIME[result.format], data: result.bytes });
  return {
    success: true,
    url: stored.url,
    meta: {
      ...(withOriginal ? { original_size: file.size, original_dimensions: `${result.originalWidth}x${result.originalHeight}` } : {}),
      output_size: stored.size,
      format: result.format,
      width: result.width,
      height: result.height,
      processing_time_ms: Math.max(0, Math.round(Date.now() - startedAt)),
      ...(result.notes.length ? { notes: result.notes } : {}),
    },
  };
}

/**
 * The upload's bytes when they are a PDF. A file that does not start with
 * %PDF- is refused as unsupported (415 or the tool's own code) whatever it is
 * called, before any engine parses it.
 */
export async function pdfBytesOf(file: File): Promise<Uint8Array> {
  const data = new Uint8Array(await file.arrayBuffer());
  if (!hasPdfHeader(data)) throw new EngineError("unsupported", "The file is not a PDF (no %PDF- header).");
  return data;
}

/** The fields every finished job's answer of the PDF editing tools opens with. */
export const completedJob = {
  job_id: z.string(),
  status: z.literal("completed"),
  processing_time_ms: z.number().int(),
  created_at: z.string(),
};

/** Those fields' values for a call whose work began at `started` (performance.now()). */
export function completedFields(ctx: ToolContext, started: number) {
  return {
    job_id: ctx.jobId,
    status: "completed" as const,
    processing_time_ms: Math.round(performance.now() - started),
    created_at: new Date().toISOString(),
  };
}
