import { z } from "zod";
import { compareLines, MAX_LISTED, MODIFIED_AT } from "../engines/compare/diff";
import { compareFormatOf, readLines } from "../engines/compare/read";
import { ApiError } from "../errors";
import { defineTool } from "./define";
import { upload } from "./fields";

const d = (description: string) => ({ description });

// Compare documents (docs/reference/compare.md): a line-level text diff, whatever
// comparison_type says (it is echoed). Beyond the original API, additive: each modified pair carries how
// alike the two lines are and the words that changed, and the result says
// whether the diff was exact (texts too different are compared as bags of
// lines).

export const compareDocuments = defineTool({
  id: "compare-documents",
  name: "Compare documents",
  method: "post",
  path: "/api/v1/analyze/compare",
  body: "multipart",
  summary: "Line-level text diff of two PDF, DOCX or TXT documents.",
  operations: [{ key: "analyze.compare", name: "Compare documents", credits: 40, access: "login" }],
  request: z.object({
    file1: upload({ extensions: [".pdf", ".docx", ".txt"] }),
    file2: upload(),
    comparison_type: z.enum(["text", "structure", "full"]).default("text"),
  }),
  response: z.object({
    success: z.boolean(),
    result: z.object({
      similarity_score: z.number(),
      differences: z.object({
        added: z.array(z.string()),
        removed: z.array(z.string()),
        modified: z.array(
          z.object({
            before: z.string(),
            after: z.string(),
            similarity: z.number().meta(d(`How alike the two lines are, 0 to 1 (character trigrams); lines at least ${MODIFIED_AT} alike pair as modified.`)),
            changes: z.array(z.object({ type: z.enum(["added", "removed"]), text: z.string() })).meta(d("The words that changed inside the line, in order.")),
          }),
        ),
      }),
      summary: z.object({
        total_differences: z.number().int(),
        similarity_percentage: z.number(),
        added: z.number().int().meta(d("Lines only in file2 (uncapped).")),
        removed: z.number().int().meta(d("Lines only in file1 (uncapped).")),
        modified: z.number().int().meta(d("Lines changed in place (uncapped).")),
        exact: z.boolean().meta(d("False when the texts were too different for a line diff and were compared as bags of lines (no modified pairs).")),
      }),
      total_differences: z.number().int(),
    }),
    meta: z.object({
      file1_pages: z.number().int(),
      file2_pages: z.number().int(),
      comparison_type: z.string(),
      processing_time_ms: z.number().int(),
    }),
    credits_charged: z.number().int(),
  }),
  async handler(_ctx, input) {
    const started = Date.now();
    const format = compareFormatOf(input.file1.name);
    if (!format) throw new ApiError("unsupported_media_type", "file1 must be a .pdf, .docx or .txt file.");
    const [one, two] = [
      await readLines(new Uint8Array(await input.file1.arrayBuffer()), format, "file1"),
      await readLines(new Uint8Array(await input.file2.arrayBuffer()), format, "file2"),
    ];
    const c = compareLines(one.lines, two.lines);
    const total = c.totals.added + c.totals.removed + c.totals.modified;
    return {
      body: {
        success: true,
        result: {
          similarity_score: c.similarity,
          differences: { added: c.added.slice(0, MAX_LISTED), removed: c.removed.slice(0, MAX_LISTED), modified: c.modified.slice(0, MAX_LISTED) },
          summary: { total_differences: total, similarity_percentage: Math.round(c.similarity * 10_000) / 100, ...c.totals, exact: c.exact },
          total_differences: total,
        },
        meta: { file1_pages: one.pages, file2_pages: two.pages, comparison_type: input.comparison_type, processing_time_ms: Date.now() - started },
      },
    };
  },
});
