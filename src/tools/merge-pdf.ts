import { z } from "zod";
import { mergePdfs } from "../engines/mupdf/pages/merge";
import { defineTool } from "./define";
import { formBool, formJson, uploads } from "./fields";

export const mergePdf = defineTool({
  id: "merge-pdf",
  name: "Merge PDF",
  method: "post",
  // The doubled segment is the real route (docs/reference/pdf-merge-split.md).
  path: "/api/v1/pdf/merge/merge",
  body: "multipart",
  summary: "Merge two or more PDFs in order; one top-level bookmark per source, forms and links kept.",
  operations: [{ key: "pdf.merge", name: "Merge PDF", credits: 10, access: "free-try" }],
  problems: ["too_few_files"],
  request: z.object({
    files: uploads({ extensions: [".pdf"], wrongType: "bad_request", min: 2, tooFew: "too_few_files" }),
    options: formJson(z.record(z.string(), z.unknown())).default({}),
    async_processing: formBool(false),
  }),
  response: z.object({
    job_id: z.string(),
    status: z.literal("completed"),
    output_url: z.string(),
    pages: z.number().int().nullable(),
    size: z.number().int().nullable(),
    compression_ratio: z.null(),
    processing_time: z.number().nullable(),
    message: z.string(),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const sources = await Promise.all(input.files.map(async (f) => ({ name: f.name, data: new Uint8Array(await f.arrayBuffer()) })));
    const merged = await mergePdfs(sources);
    const stored = await ctx.store({ filename: "merged.pdf", contentType: "application/pdf", data: merged.data });
    return {
      body: {
        job_id: ctx.jobId,
        status: "completed",
        output_url: stored.url,
        pages: merged.pages,
        size: stored.size,
        compression_ratio: null,
        processing_time: Math.round(performance.now() - started) / 1000,
        message: "Merged successfully",
      },
    };
  },
});
