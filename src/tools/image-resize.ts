import { z } from "zod";
import { IMAGE_FORMATS, imageResponse, quality } from "./common";
import { defineTool } from "./define";
import { formInt, upload } from "./fields";

export const imageResize = defineTool({
  id: "image-resize",
  name: "Resize image",
  method: "post",
  path: "/api/v1/image/resize",
  body: "multipart",
  summary: "Resize with Lanczos3; one side given keeps the aspect ratio.",
  operations: [{ key: "image.resize", name: "Resize image", credits: 10, access: "free-try" }],
  request: z
    .object({
      file: upload(),
      width: formInt({ min: 1, max: 20000 }).optional(),
      height: formInt({ min: 1, max: 20000 }).optional(),
      target_format: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(IMAGE_FORMATS)).optional(),
      quality: quality(85),
    })
    .refine((i) => i.width !== undefined || i.height !== undefined, { message: "Give width, height or both.", path: ["width"] }),
  response: imageResponse,
});
