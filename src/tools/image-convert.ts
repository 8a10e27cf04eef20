import { z } from "zod";
import { convertImage } from "../engines/images";
import { imageBody, imageResponse, quality, targetFormat } from "./common";
import { defineTool } from "./define";
import { upload } from "./fields";
import { IMAGE_ENGINE_ERRORS } from "../errors";

// The original API listed convert's targets without "jpeg"; we accept it as well as "jpg", as resize does.
const CONVERT_TARGETS = ["png", "jpg", "jpeg", "webp", "avif", "bmp", "tiff", "gif"] as const;

export const imageConvert = defineTool({
  id: "image-convert",
  name: "Convert image",
  method: "post",
  path: "/api/v1/image/convert",
  body: "multipart",
  summary: "Convert between PNG, JPEG, WebP, AVIF, BMP, TIFF and GIF.",
  operations: [{ key: "image.convert", name: "Convert image", credits: 10, access: "free-try" }],
  engineErrors: IMAGE_ENGINE_ERRORS,
  request: z.object({
    file: upload(),
    target_format: targetFormat(CONVERT_TARGETS),
    quality: quality(85),
  }),
  response: imageResponse,
  async handler(ctx, input) {
    const started = Date.now();
    const result = await convertImage(new Uint8Array(await input.file.arrayBuffer()), input.target_format, input.quality);
    return { body: await imageBody(ctx, input.file, result, started, false) };
  },
});
