import { z } from "zod";
import { watermarkText as stampText } from "../engines/mupdf/stamps/watermark";
import { hexColor, positionField, WATERMARK_POSITIONS } from "./common";
import { defineTool } from "./define";
import { formBool, formInt, formNumber, upload } from "./fields";
import { watermarkAnswer, watermarkResponse } from "./watermark-image";

/** 1 to 100 characters, counted as code points, not UTF-16 units (docs/reference/pdf-stamps.md). */
const watermarkTextField = z
  .string()
  .refine((s) => s.trim().length > 0, "The text must not be blank.")
  .refine((s) => [...s].length <= 100, "The text may have at most 100 characters.");

export const watermarkText = defineTool({
  id: "watermark-text",
  name: "Text watermark",
  method: "post",
  path: "/api/v1/watermark/text",
  body: "multipart",
  summary: "Stamp selectable vector text on every page of a PDF.",
  operations: [{ key: "watermark.text", name: "Text watermark", credits: 10, access: "free-try" }],
  request: z.object({
    file: upload({ extensions: [".pdf"], wrongType: "unsupported_media_type" }),
    text: watermarkTextField,
    position: positionField(WATERMARK_POSITIONS, "center"),
    opacity: formNumber({ min: 0, max: 1 }).default(0.3),
    font_size: formInt({ min: 8, max: 72 }).default(24),
    color: hexColor.default("#000000"),
    rotation: formInt({ min: -180, max: 180 }).default(0),
    tile: formBool(false),
  }),
  response: watermarkResponse,
  async handler(ctx, input) {
    const started = performance.now();
    const result = await stampText(new Uint8Array(await input.file.arrayBuffer()), {
      text: input.text,
      position: input.position,
      opacity: input.opacity,
      fontSize: input.font_size,
      color: input.color,
      rotation: input.rotation,
      tile: input.tile,
    });
    return watermarkAnswer(ctx, input.file.name, result, "text", started);
  },
});
