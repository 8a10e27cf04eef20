import { z } from "zod";
import { engineField, pdfUpload415 } from "./common";
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
  // api.md: cost precedence is vision, then LLM cleanup, then default.
  selectOperation: (i) => (i.engine === "vision" ? "pdf.to_markdown.ai" : i.llm_cleanup ? "pdf.to_markdown_llm" : "pdf.to_markdown"),
  request: z.object({ file: pdfUpload415(), llm_cleanup: formBool(false), engine: engineField }),
  response: z.object({
    success: z.boolean(),
    markdown: z.string(),
    engine: z.string(),
    pages: z.number().int(),
    word_count: z.number().int(),
    headings: z.number().int(),
    credits_charged: z.number().int(),
  }),
});
