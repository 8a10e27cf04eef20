import { z } from "zod";
import { addPageNumbers } from "../engines/mupdf/stamps/page-numbers";
import { derivedPdfName } from "../storage/outputs";
import { hexColor, pdfBytesOf, pdfUpload415, positionField, urlResult } from "./common";
import { defineTool } from "./define";
import { formInt } from "./fields";

export const PAGE_NUMBER_POSITIONS = ["bottom-center", "bottom-left", "bottom-right", "top-left", "top-center", "top-right", "center"] as const;

export const pageNumbers = defineTool({
  id: "page-numbers",
  name: "Page numbers",
  method: "post",
  path: "/api/v1/pdf/page-numbers",
  body: "multipart",
  summary: "Stamp page numbers with a format string ({n}, {roman}, {ROMAN}, {alpha}, {ALPHA}, {total}).",
  operations: [{ key: "pdf.page_numbers", name: "Page numbers", credits: 10, access: "free-try" }],
  request: z.object({
    file: pdfUpload415(),
    position: positionField(PAGE_NUMBER_POSITIONS, "bottom-center"),
    start: formInt({ min: 0, max: 1_000_000 }).default(1),
    font_size: formInt({ min: 4, max: 144 }).default(11),
    fmt: z
      .string()
      .max(200)
      .refine((s) => s.trim().length > 0, "fmt must not be blank.")
      .default("{n}"),
    first_page: formInt({ min: 1 }).default(1),
    color: hexColor.default("#000000"),
  }),
  response: z.object(urlResult),
  async handler(ctx, input) {
    // A non-PDF upload is a 415, judged by content as well as by name (docs/reference/pdf-stamps.md).
    const data = await pdfBytesOf(input.file);
    const result = await addPageNumbers(data, {
      fmt: input.fmt,
      position: input.position,
      start: input.start,
      firstPage: input.first_page,
      fontSize: input.font_size,
      color: input.color,
    });
    const name = derivedPdfName(input.file.name, "numbered");
    const stored = await ctx.store({ filename: name, contentType: "application/pdf", data: result.data });
    return { body: { success: true, url: stored.url } };
  },
});
