import { z } from "zod";
import { positionField, WATERMARK_POSITIONS } from "./common";
import { defineTool } from "./define";
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

export const watermarkImage = defineTool({
  id: "watermark-image",
  name: "Image watermark",
  method: "post",
  path: "/api/v1/watermark/image",
  body: "multipart",
  summary: "Stamp a PNG or JPEG on every page of a PDF.",
  operations: [{ key: "watermark.image", name: "Image watermark", credits: 10, access: "free-try" }],
  request: z.object({
    file: upload({ extensions: [".pdf"], wrongType: "unsupported_media_type" }),
    watermark: upload({ extensions: [".png", ".jpg", ".jpeg"], wrongType: "validation_failed" }),
    position: positionField(WATERMARK_POSITIONS, "center"),
    opacity: formNumber({ min: 0, max: 1 }).default(0.5),
    scale: formNumber({ min: 0.1, max: 2 }).default(1),
    tile: formBool(false),
  }),
  response: watermarkResponse,
});
