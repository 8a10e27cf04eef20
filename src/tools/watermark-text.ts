import { z } from "zod";
import { hexColor, positionField, WATERMARK_POSITIONS } from "./common";
import { defineTool } from "./define";
import { formBool, formInt, formNumber, upload } from "./fields";
import { watermarkResponse } from "./watermark-image";

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
    text: z.string().min(1).max(100),
    position: positionField(WATERMARK_POSITIONS, "center"),
    opacity: formNumber({ min: 0, max: 1 }).default(0.3),
    font_size: formInt({ min: 8, max: 72 }).default(24),
    color: hexColor.default("#000000"),
    rotation: formInt({ min: -180, max: 180 }).default(0),
    tile: formBool(false),
  }),
  response: watermarkResponse,
});
