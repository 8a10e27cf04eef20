import { z } from "zod";
import { organisePdf } from "../engines/mupdf/pages/organise";
import { derivedPdfName } from "../storage/outputs";
import { completedFields, completedJob, pdfBytesOf, pdfUpload415 } from "./common";
import { defineTool } from "./define";
import { BLANK_SIZES, parseCrop, parseInsertBlank, parseRotate, planOrganise, syntaxField } from "./organise-plan";
import { parsePageList } from "./page-list";

const STEPS = ["pages", "delete", "rotate", "insert_blank", "crop"] as const;

const pageList = (description: string) => syntaxField(parsePageList, description).optional();

export const organisePages = defineTool({
  id: "organise-pages",
  name: "Organise pages",
  method: "post",
  path: "/api/v1/pdf/pages",
  body: "multipart",
  summary: "Select, reorder, repeat, delete, rotate, insert blank pages and crop in one call, applied in that order (beyond the original API contract).",
  operations: [{ key: "pdf.pages", name: "Organise pages", credits: 10, access: "free-try" }],
  // Memory: the default estimate, as Split and Merge: one document parsed and
  // rewritten; repeats and blanks share or add no content streams.
  request: z
    .object({
      file: pdfUpload415(),
      pages: pageList(
        "Step 1. The pages to keep, in output order, repeats allowed: 3,1,5-7,2 · odd · even · -1 (last) · -3--1 (last three) · 2- (to the end) · 5-2 (backwards). Default: every page in order.",
      ),
      delete: pageList("Step 2. Source pages to drop from that list, same syntax."),
      rotate: syntaxField(
        parseRotate,
        "Step 3. Degrees added to each page's own /Rotate: one angle for every page (90), or pages:angle entries (1-3:90,5:180,even:-90). Angles: 90, 180, 270, -90. Pages are numbered as steps 1-2 left them.",
      ).optional(),
      insert_blank: syntaxField(
        parseInsertBlank,
        "Step 4. Blank pages at positions of the pages steps 1-2 left: after:3, before:1, after:odd, start, end. Each is sized like its neighbour as displayed (the page it follows; the one it precedes for before: and start), unless blank_size is given.",
      ).optional(),
      blank_size: z
        .preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(Object.keys(BLANK_SIZES) as [keyof typeof BLANK_SIZES]))
        .optional()
        .meta({ description: "A named portrait size for every blank page: a3, a4, a5, letter or legal." }),
      crop: syntaxField(
        parseCrop,
        "Step 5. Margins taken off left,bottom,right,top as each page is displayed, in points (36,36,36,36) or per cent (10%,5%,10%,5%), or one value for every side. Sets /CropBox from the visible area; /MediaBox and the content are unchanged.",
      ).optional(),
      crop_pages: pageList("The pages crop applies to, numbered as the final output (blank pages counted). Default: every page."),
    })
    .superRefine((i, ctx) => {
      if (!STEPS.some((step) => i[step] !== undefined)) {
        ctx.addIssue({ code: "custom", path: ["pages"], message: `Give at least one of ${STEPS.join(", ")}.` });
      }
      // A modifier without its step would be ignored silently.
      if (i.blank_size !== undefined && i.insert_blank === undefined)
        ctx.addIssue({ code: "custom", path: ["blank_size"], message: "blank_size needs insert_blank." });
      if (i.crop_pages !== undefined && i.crop === undefined) ctx.addIssue({ code: "custom", path: ["crop_pages"], message: "crop_pages needs crop." });
    }),
  response: z.object({
    ...completedJob,
    file_url: z.string(),
    pages: z.number().int().meta({ description: "Pages of the output, blank pages included." }),
    source_pages: z.number().int(),
    size: z.number().int(),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const data = await pdfBytesOf(input.file);
    const result = await organisePdf(data, (count) => planOrganise(input, count));
    const stored = await ctx.store({ filename: derivedPdfName(input.file.name, "organised"), contentType: "application/pdf", data: result.data });
    return {
      body: {
        ...completedFields(ctx, started),
        file_url: stored.url,
        pages: result.pages,
        source_pages: result.sourcePages,
        size: stored.size,
      },
    };
  },
});
