import { z } from "zod";
import { MAX_SIDE, resizeImage } from "../engines/images";
import { IMAGE_FORMATS, imageBody, imageResponse, quality, targetFormat } from "./common";
import { defineTool } from "./define";
import { formInt, upload } from "./fields";
import { IMAGE_ENGINE_ERRORS } from "../errors";

export const imageResize = defineTool({
  id: "image-resize",
  name: "Resize image",
  method: "post",
  path: "/api/v1/image/resize",
  body: "multipart",
  summary: "Resize with Lanczos3; one side given keeps the aspect ratio.",
  operations: [{ key: "image.resize", name: "Resize image", credits: 10, access: "free-try" }],
  engineErrors: IMAGE_ENGINE_ERRORS,
  request: z
    .object({
      file: upload(),
      width: formInt({ min: 1, max: MAX_SIDE }).optional(),
      height: formInt({ min: 1, max: MAX_SIDE }).optional(),
      target_format: targetFormat(IMAGE_FORMATS).optional(),
      quality: quality(85),
    })
    .refine((i) => i.width !== undefined || i.height !== undefined, { message: "Give width, height or both.", path: ["width"] }),
  response: imageResponse,
  async handler(ctx, input) {
    const started = Date.now();
    const result = await resizeImage(new Uint8Array(await input.file.arrayBuffer()), {
      width: input.width,
      height: input.height,
      format: input.target_format,
      quality: input.quality,
    });
    return { body: await imageBody(ctx, input.file, result, started, true) };
  },
});
