import { z } from "zod";
import { type Converted, engineNames, findPair, pairList, pairTable, VISION_ENGINE } from "../engines/convert/pairs";
import { sourceFormatOf, targetFormatOf } from "../engines/convert/formats";
import { MAX_SOURCE_BYTES } from "../engines/convert/text-bounds";
import { visionModelConfigured } from "../engines/ai/provider";
import { visionDocxOfPdf } from "../engines/ai/vision-docx";
import { ApiError } from "../errors";
import { safeFilename } from "../storage/outputs";
import { aiStep } from "./ai-errors";
import { engineField } from "./common";
import { BROWSER_PROBLEMS, MODEL_PROBLEMS } from "./problems";
import { defineTool } from "./define";
import { formJson, upload } from "./fields";
import { uploadEstimate } from "./memory-estimate";

// Convert document (docs/tools/convert-document.md). The pairs, their engines and what quality_score
// measures for each live in one table (engines/convert/pairs.ts); this file
// checks the pair before anything is charged and answers the tool's body.

/** quality_preset as JPEG quality of raster outputs; the other pairs have no lossy step to tune. */
const JPEG_QUALITY = { standard: 85, premium: 92, maximum: 97 } as const;

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const MiB = 1024 * 1024;

/**
 * TXT and Markdown are laid out by MuPDF a stretch at a time
 * (engines/convert/flow-layout.ts): its heap grows by the CJK or Arabic font
 * and the font subsetting, at most 10 MB measured, whatever the length;
 * besides, the JavaScript heap holds the upload, the copy the road reads and
 * what it makes of each source byte (plain text about four bytes, marked's
 * tokens about thirty). A source past its road's byte cap is refused before
 * any layout, so it costs only its two copies: 30 MB of newlines never asks
 * for the whole budget.
 */
interface TextRoad {
  cap: number;
  perByte: number;
}
const TEXT_ROADS: Record<string, TextRoad> = { txt: { cap: MAX_SOURCE_BYTES.text, perByte: 4 }, md: { cap: MAX_SOURCE_BYTES.markdown, perByte: 30 } };

function textEstimate(road: TextRoad, size: number): number {
  const copies = 2 * size;
  return size > road.cap ? copies : copies + 16 * MiB + road.perByte * size;
}

const textRoadOf = (name: string): TextRoad | undefined => TEXT_ROADS[sourceFormatOf(name) ?? ""];

const isVisionDocx = (name: string, target: string) => sourceFormatOf(name) === "pdf" && targetFormatOf(target) === "docx";

export const convertDocument = defineTool({
  id: "convert-document",
  name: "Convert document",
  method: "post",
  path: "/api/v1/conversion/single",
  body: "multipart",
  summary: "Convert between PDF, DOCX, TXT, Markdown, HTML and images; the source format comes from the filename.",
  operations: [
    { key: "convert.document", name: "Convert document", credits: 40, access: "free-try" },
    { key: "convert.pdf_to_docx.ai", name: "Vision PDF to DOCX", credits: 200, access: "plan:paid" },
  ],
  memory: (i) => {
    const road = textRoadOf(i.file.name);
    return road ? textEstimate(road, i.file.size) : uploadEstimate(i);
  },
  selectOperation: (i) => (i.engine === "vision" && isVisionDocx(i.file.name, i.target_format) ? "convert.pdf_to_docx.ai" : "convert.document"),
  problems: ["unsupported_conversion", "ai_not_configured", ...MODEL_PROBLEMS, ...BROWSER_PROBLEMS],
  request: z
    .object({
      file: upload({ missing: "bad_request", empty: "bad_request" }),
      target_format: z
        .string()
        .min(1)
        .transform((s) => s.trim().toLowerCase())
        .meta({ description: `Output format. The source format comes from the file name's extension. Supported pairs:\n${pairTable()}` }),
      quality_preset: z.enum(["standard", "premium", "maximum"]).default("standard").meta({ description: "JPEG quality of PDF → JPG pages: 85, 92 or 97." }),
      engine: engineField.meta({ description: "`vision` takes effect for PDF → DOCX only (paid plans; needs a vision model configured)." }),
      custom_settings: formJson(z.unknown()).optional(),
    })
    .superRefine((i, ctx) => {
      if (!(i.file instanceof File) || typeof i.target_format !== "string") return;
      const source = sourceFormatOf(i.file.name);
      const target = targetFormatOf(i.target_format);
      if (source && target && findPair(source, target)) return;
      ctx.addIssue({
        code: "custom",
        path: ["target_format"],
        message: `${source ?? `.${i.file.name.split(".").pop() ?? ""} files`} → ${i.target_format} is not supported. Supported pairs: ${pairList()}.`,
        params: { code: "unsupported_conversion" },
      });
    }),
  response: z.object({
    conversion_id: z.string(),
    status: z.literal("completed"),
    output_file_url: z.string(),
    quality_score: z.number().meta({ description: "0 to 1; what it measures depends on the pair (docs/tools/convert-document.md)." }),
    processing_time: z.number(),
    engine_used: z.string().meta({ description: `One of: ${engineNames().join(", ")}.` }),
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
  async handler(ctx, input) {
    const started = Date.now();
    const source = sourceFormatOf(input.file.name);
    const target = targetFormatOf(input.target_format);
    const pair = source && target ? findPair(source, target) : undefined;
    if (!pair) throw new ApiError("unsupported_conversion", `Supported pairs: ${pairList()}.`);
    if (ctx.operation.key === "convert.pdf_to_docx.ai") {
      if (!visionModelConfigured(ctx.env))
        throw new ApiError(
          "ai_not_configured",
          "engine=vision needs an AI vision model, and none is configured on this server; nothing was charged. Use engine=auto.",
        );
    }
    const stem = safeFilename(input.file.name.replace(/\.[^.]*$/, ""), "document");
    const bytes = new Uint8Array(await input.file.arrayBuffer());
    // Vision falls back to the deterministic converter when the model finds nothing, the vision rate still charged (docs/tools/ai.md).
    const seen = ctx.operation.key === "convert.pdf_to_docx.ai" ? await aiStep(() => visionDocxOfPdf(ctx.env, bytes)) : null;
    const out = seen
      ? { data: seen.docx, filename: `${stem}.docx`, contentType: DOCX, score: seen.score, notes: seen.notes }
      : await pair.convert({ bytes, stem, env: ctx.env, jpegQuality: JPEG_QUALITY[input.quality_preset] });
    const engine = seen ? VISION_ENGINE : ((out as Converted).engine ?? pair.engine);
    const stored = await ctx.store({ filename: out.filename, contentType: out.contentType, data: out.data });
    const processingTime = Math.round(Date.now() - started) / 1000;
    const quality = Math.round(out.score * 10_000) / 10_000;
    return {
      body: {
        conversion_id: crypto.randomUUID(),
        status: "completed",
        output_file_url: stored.url,
        quality_score: quality,
        processing_time: processingTime,
        engine_used: engine,
        metadata: {
          source_format: pair.source,
          target_format: pair.target,
          quality_score: quality,
          processing_time: processingTime,
          engine_used: engine,
          file_size: stored.size,
        },
        created_at: new Date().toISOString(),
      },
    };
  },
});
