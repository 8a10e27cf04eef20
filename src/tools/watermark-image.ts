import { z } from "zod";
import { watermarkImage as stampImage } from "../engines/mupdf/stamps/image-watermark";
import { derivedPdfName } from "../storage/outputs";
import { positionField, WATERMARK_POSITIONS } from "./common";
import { defineTool, type ToolContext, type ToolResult } from "./define";
import { formBool, formNumber, upload } from "./fields";

export const watermarkResponse = z.object({
  success: z.boolean(),
  url: z.string(),
  meta: z.object({
    pages_watermarked: z.number().int(),
    watermark_type: z.enum(["image", "text"]),
    processing_time_ms: z.number().int(),
  }),
  credits_charged: z.number().int(),
});

/** Stores a watermarked PDF and answers the watermark body (docs/reference/pdf-stamps.md; shared by both watermark tools). */
export async function watermarkAnswer(
  ctx: ToolContext,
  uploadName: string,
  result: { data: Uint8Array; pages: number },
  type: "image" | "text",
  started: number,
): Promise<ToolResult> {
  const stored = await ctx.store({ filename: derivedPdfName(uploadName, "watermarked"), contentType: "application/pdf", data: result.data });
  return {
    body: {
      success: true,
      url: stored.url,
      meta: { pages_watermarked: result.pages, watermark_type: type, processing_time_ms: Math.round(performance.now() - started) },
    },
  };
}

export const watermarkImage = defineTool({
  id: "watermark-image",
  name: "Image watermark",
  method: "post",
  path: "/api/v1/watermark/image",
  body: "multipart",
  summary: "Stamp a PNG or JPEG on every page of a PDF.",
  operations: [{ key: "watermark.image", name: "Image watermark", credits: 10, access: "free-try" }],
  // A bad watermark image (not PNG/JPEG by content, corrupt, too many pixels) is a 422.
  engineErrors: { invalid_input: "invalid_image" },
  problems: ["invalid_image"],
  request: z.object({
    file: upload({ extensions: [".pdf"], wrongType: "unsupported_media_type" }),
    // PNG or JPEG is decided by the bytes (magic numbers), not by the name.
    watermark: upload({ empty: "invalid_image" }),
    position: positionField(WATERMARK_POSITIONS, "center"),
    opacity: formNumber({ min: 0, max: 1 }).default(0.5),
    scale: formNumber({ min: 0.1, max: 2 }).default(1),
    tile: formBool(false),
  }),
  response: watermarkResponse,
  async handler(ctx, input) {
    const started = performance.now();
    const result = await stampImage(new Uint8Array(await input.file.arrayBuffer()), {
      image: new Uint8Array(await input.watermark.arrayBuffer()),
      position: input.position,
      opacity: input.opacity,
      scale: input.scale,
      tile: input.tile,
    });
    return watermarkAnswer(ctx, input.file.name, result, "image", started);
  },
});
