import { z } from "zod";
import type { MarkdownResult } from "../engines/layout";
import { countHeadings, countWords } from "../engines/layout/markdown";
import { textModelConfigured, visionModelConfigured } from "../engines/ai/provider";
import { MARKDOWN_ENGINES, type MarkdownEngine, pdfMarkdown } from "../engines/pdf-markdown/convert";
import { ApiError } from "../errors";
import { aiStep } from "./ai-errors";
import { engineField, pdfUpload415 } from "./common";
import { MODEL_PROBLEMS } from "./problems";
import { defineTool } from "./define";
import { formBool } from "./fields";

export const pdfToMarkdown = defineTool({
  id: "pdf-to-markdown",
  name: "PDF to Markdown",
  method: "post",
  path: "/api/v1/pdf/to-markdown",
  body: "multipart",
  summary: "Convert a PDF to Markdown inline; scanned pages through OCR.",
  operations: [
    { key: "pdf.to_markdown", name: "PDF to Markdown", credits: 40, access: "login" },
    { key: "pdf.to_markdown_llm", name: "PDF to Markdown with LLM cleanup", credits: 100, access: "plan:aiMarkdown" },
    { key: "pdf.to_markdown.ai", name: "PDF to Markdown with vision", credits: 200, access: "plan:aiMarkdown" },
  ],
  // Cost precedence is vision, then LLM cleanup, then default (docs/tools/pdf-to-markdown.md).
  selectOperation: (i) => (i.engine === "vision" ? "pdf.to_markdown.ai" : i.llm_cleanup ? "pdf.to_markdown_llm" : "pdf.to_markdown"),
  problems: ["ai_not_configured", "llm_not_configured", ...MODEL_PROBLEMS],
  request: z.object({ file: pdfUpload415(), llm_cleanup: formBool(false), engine: engineField }),
  response: z.object({
    success: z.boolean(),
    markdown: z.string().meta({ description: "CommonMark with GitHub pipe tables; images as `#page-N-image-M` references." }),
    engine: z.enum(Object.keys(MARKDOWN_ENGINES) as [MarkdownEngine]).meta({
      description: `Pipeline that ran. ${Object.entries(MARKDOWN_ENGINES)
        .map(([k, v]) => `\`${k}\`: ${v}`)
        .join("; ")}.`,
    }),
    pages: z.number().int(),
    word_count: z.number().int().meta({ description: "Words a reader sees in `markdown`: markup, link targets and image references not counted." }),
    headings: z.number().int().meta({ description: "ATX heading lines in `markdown`." }),
    pages_without_text: z.array(z.number().int()).meta({
      description:
        "1-based pages that have images but no usable text layer (scans, or scans under an unreadable invisible text layer). Under `auto` they are read by OCR and their text is in `markdown` (`engine` is then `ocr`).",
    }),
    credits_charged: z.number().int(),
  }),
  async handler(ctx, input) {
    const bytes = new Uint8Array(await input.file.arrayBuffer());
    const vision = input.engine === "vision";
    if (vision && !visionModelConfigured(ctx.env))
      throw new ApiError("ai_not_configured", "engine=vision needs an AI vision model, and none is configured here; use engine=auto.");
    if (!vision && input.llm_cleanup && !textModelConfigured(ctx.env)) {
      throw new ApiError(
        "llm_not_configured",
        "llm_cleanup needs an AI text model, and none is configured here; nothing was charged. Retry without llm_cleanup.",
      );
    }
    // A blank or unreadable-by-OCR document is a valid document whose Markdown is empty: a 200, billed like any success (docs/tools/pdf-to-markdown.md).
    const { markdown, engine, layout } = await aiStep(() => pdfMarkdown(ctx.env, bytes, { vision, llmCleanup: input.llm_cleanup }));
    return answer(markdown, engine, layout);
  },
});

function answer(markdown: string, engine: MarkdownEngine, result: MarkdownResult) {
  return {
    body: {
      success: true,
      markdown,
      engine,
      pages: result.pages,
      word_count: countWords(markdown),
      headings: countHeadings(markdown),
      pages_without_text: result.pagesWithoutText.map((p) => p + 1),
    },
  };
}
