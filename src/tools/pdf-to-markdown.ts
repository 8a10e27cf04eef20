import { z } from "zod";
import { type MarkdownResult, markdownOfPdf } from "../engines/layout";
import { countHeadings, countWords } from "../engines/layout/markdown";
import { cleanMarkdown } from "../engines/ai/cleanup";
import { textModelConfigured, visionModelConfigured } from "../engines/ai/provider";
import { visionMarkdownOfPdf } from "../engines/ai/vision-markdown";
import { ocrPage } from "../engines/ocr/page";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { aiStep } from "./ai-errors";
import { engineField, pdfUpload415 } from "./common";
import { MODEL_PROBLEMS } from "./problems";
import { defineTool } from "./define";
import { formBool } from "./fields";

/** Our engine names, for what really ran (docs/tools/pdf-to-markdown.md, Response). */
const ENGINES = {
  layout: "layout: MuPDF structured text through our layout engine (reading order, headings, lists, tables)",
  "layout+llm": "layout, then an LLM cleanup pass",
  ocr: "layout over OCR word boxes for the pages without a text layer (text pages keep their own text)",
  "ocr+llm": "OCR, then an LLM cleanup pass",
  vision: "a vision model reading the page images",
} as const;

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
    engine: z.enum(Object.keys(ENGINES) as [keyof typeof ENGINES]).meta({
      description: `Pipeline that ran. ${Object.entries(ENGINES)
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
    if (input.engine === "vision") {
      if (!visionModelConfigured(ctx.env))
        throw new ApiError("ai_not_configured", "engine=vision needs an AI vision model, and none is configured here; use engine=auto.");
      const seen = await aiStep(() => visionMarkdownOfPdf(ctx.env, bytes));
      // Vision falls back to the deterministic engine when it finds nothing (docs/tools/ai.md).
      if (seen.trim()) return answer(seen, "vision", await markdownOfPdf(bytes));
    } else if (input.llm_cleanup && !textModelConfigured(ctx.env)) {
      throw new ApiError(
        "llm_not_configured",
        "llm_cleanup needs an AI text model, and none is configured here; nothing was charged. Retry without llm_cleanup.",
      );
    }
    const result = await markdownOfPdf(bytes);
    const { markdown, engine } = await withOcr(bytes, result);
    if (input.engine === "auto" && input.llm_cleanup) return answer(...(await cleanup(ctx.env, markdown, engine)), result);
    return answer(markdown, engine, result);
  },
});

type Engine = keyof typeof ENGINES;

function answer(markdown: string, engine: Engine, result: MarkdownResult) {
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

/**
 * Scanned pages are read by OCR (src/engines/ocr) and go through the same
 * layout engine as text pages, in page order; text pages keep their own
 * text. A document that says nothing (blank pages, or scans on which OCR
 * reads nothing) is a valid document whose Markdown is empty: a 200, billed
 * like any success. This tool has no "no text" error; the 422 for no
 * extractable text is AI extract's (docs/tools/pdf-to-markdown.md).
 */
async function withOcr(bytes: Uint8Array, result: MarkdownResult): Promise<{ markdown: string; engine: Engine }> {
  if (!result.pagesWithoutText.length) return { markdown: result.markdown, engine: "layout" };
  const read = await markdownOfPdf(bytes, ocrPage);
  return { markdown: read.markdown, engine: "ocr" };
}

/** Cleanup is best effort; on failure the deterministic Markdown is answered and the LLM rate still billed (docs/tools/ai.md). */
async function cleanup(env: Env, markdown: string, engine: Engine): Promise<[string, Engine]> {
  // Nothing to polish (a blank document): no model call; the LLM rate is still what was asked for.
  if (!markdown.trim()) return [markdown, engine];
  try {
    const polished = await cleanMarkdown(env, markdown);
    return polished.trim() ? [polished, engine === "ocr" ? "ocr+llm" : "layout+llm"] : [markdown, engine];
  } catch (err) {
    console.error("llm cleanup failed; answering the deterministic Markdown", err);
    return [markdown, engine];
  }
}
