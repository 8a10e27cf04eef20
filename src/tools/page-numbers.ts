import { z } from "zod";
import { hexColor, pdfUpload415, positionField, urlResult } from "./common";
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
    fmt: z.string().min(1).max(200).default("{n}"),
    first_page: formInt({ min: 1 }).default(1),
    color: hexColor.default("#000000"),
  }),
  response: z.object(urlResult),
});
