import { z } from "zod";
import { IMAGE_FORMATS, imageResponse, quality } from "./common";
import { defineTool } from "./define";
import { upload } from "./fields";

export const imageConvert = defineTool({
  id: "image-convert",
  name: "Convert image",
  method: "post",
  path: "/api/v1/image/convert",
  body: "multipart",
  summary: "Convert between PNG, JPEG, WebP, AVIF, BMP, TIFF and GIF.",
  operations: [{ key: "image.convert", name: "Convert image", credits: 10, access: "free-try" }],
  request: z.object({
    file: upload(),
    target_format: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(IMAGE_FORMATS)),
    quality: quality(85),
  }),
  response: imageResponse,
});
