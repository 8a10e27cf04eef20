import { z } from "zod";
import { imageResponse, quality } from "./common";
import { defineTool } from "./define";
import { upload } from "./fields";

export const imageCompress = defineTool({
  id: "image-compress",
  name: "Compress image",
  method: "post",
  path: "/api/v1/image/compress",
  body: "multipart",
  summary: "Shrink an image in its own format; never larger than the input.",
  operations: [{ key: "image.compress", name: "Compress image", credits: 10, access: "free-try" }],
  request: z.object({ file: upload(), quality: quality(70) }),
  response: imageResponse,
});
