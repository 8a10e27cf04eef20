import { z } from "zod";
import { compressImage } from "../engines/images";
import { imageBody, imageResponse, quality } from "./common";
import { defineTool } from "./define";
import { upload } from "./fields";
import { IMAGE_ENGINE_ERRORS } from "../errors";

export const imageCompress = defineTool({
  id: "image-compress",
  name: "Compress image",
  method: "post",
  path: "/api/v1/image/compress",
  body: "multipart",
  summary: "Shrink an image in its own format; never larger than the input.",
  operations: [{ key: "image.compress", name: "Compress image", credits: 10, access: "free-try" }],
  engineErrors: IMAGE_ENGINE_ERRORS,
  request: z.object({ file: upload(), quality: quality(70) }),
  response: imageResponse,
  async handler(ctx, input) {
    const started = Date.now();
    const result = await compressImage(new Uint8Array(await input.file.arrayBuffer()), input.quality);
    return { body: await imageBody(ctx, input.file, result, started, true) };
  },
});
