import type { Env } from "../../env";
import { cleanMarkdown } from "../ai/cleanup";
import { visionMarkdownOfPdf } from "../ai/vision-markdown";
import { type MarkdownResult, markdownOfPdf } from "../layout";
import { ocrPage } from "../ocr/page";
import { ocrPicture } from "./picture-ocr";

// PDF to Markdown as one capability: which readers run on a document and
// what happens when one finds nothing. The layout engine reads text pages;
// pages without a text layer are read by OCR through the same layout
// engine; a vision model reads page images when asked; an LLM may polish
// the result. The tool decides only what the caller may ask for (plans,
// configured models); the order and the fallbacks are here.

/** The pipelines that can run, by the name an answer reports (docs/tools/pdf-to-markdown.md, Response). */
export const MARKDOWN_ENGINES = {
  layout: "layout: MuPDF structured text through our layout engine (reading order, headings, lists, tables)",
  "layout+llm": "layout, then an LLM cleanup pass",
  ocr: "layout over OCR word boxes for the pages without a text layer (text pages keep their own text)",
  "ocr+llm": "OCR, then an LLM cleanup pass",
  vision: "a vision model reading the page images",
} as const;

export type MarkdownEngine = keyof typeof MARKDOWN_ENGINES;

export interface PdfMarkdownOptions {
  /** A vision model reads the page images; the layout engine answers when it sees nothing. */
  vision: boolean;
  /** An LLM polishes the deterministic Markdown (best effort). */
  llmCleanup: boolean;
}

export interface PdfMarkdown {
  markdown: string;
  engine: MarkdownEngine;
  /** The layout engine's reading of the text layer: page count and the pages that had no text. */
  layout: MarkdownResult;
}

/**
 * The Markdown of a PDF. A model that fails (AiError) propagates from the
 * vision read, so the caller can answer 503; the cleanup pass never fails
 * the call.
 */
export async function pdfMarkdown(env: Env, bytes: Uint8Array, opts: PdfMarkdownOptions): Promise<PdfMarkdown> {
  if (opts.vision) {
    const seen = await visionMarkdownOfPdf(env, bytes);
    // Vision falls back to the deterministic engine when it finds nothing (docs/tools/ai.md).
    if (seen.trim()) return { markdown: seen, engine: "vision", layout: await markdownOfPdf(bytes) };
  }
  const { layout, ...read } = await deterministic(env, bytes);
  if (!opts.vision && opts.llmCleanup) return { ...(await cleanup(env, read.markdown, read.engine)), layout };
  return { ...read, layout };
}

/**
 * Scanned pages are read by OCR (src/engines/ocr) and go through the same
 * layout engine as text pages, in page order; text pages keep their own
 * text. Pictures on text pages that carry no text (a screenshot of a
 * table: layout/pictures.ts says which and how many) are read by the same
 * OCR Worker when this deployment has one, and their words join the page
 * where the picture is when they make a table; a picture that shows none
 * adds nothing. With the OCR Worker bound one reading does both, each page
 * read by OCR as it comes; without it a scan still asks for OCR, which
 * answers ocr_unavailable (docs/tools/ocr.md). A document that says
 * nothing (blank pages, or scans on which OCR reads nothing) is a valid
 * document whose Markdown is empty.
 */
async function deterministic(env: Env, bytes: Uint8Array): Promise<{ markdown: string; engine: MarkdownEngine; layout: MarkdownResult }> {
  if (env.OCR) {
    const layout = await markdownOfPdf(bytes, ocrPage, ocrPicture);
    return { markdown: layout.markdown, engine: layout.pagesWithoutText.length || layout.picturesRead ? "ocr" : "layout", layout };
  }
  const layout = await markdownOfPdf(bytes);
  if (!layout.pagesWithoutText.length) return { markdown: layout.markdown, engine: "layout", layout };
  const read = await markdownOfPdf(bytes, ocrPage);
  return { markdown: read.markdown, engine: "ocr", layout };
}

/** Cleanup is best effort: on failure the deterministic Markdown is answered (docs/tools/ai.md says how it is billed). */
async function cleanup(env: Env, markdown: string, engine: MarkdownEngine): Promise<{ markdown: string; engine: MarkdownEngine }> {
  // Nothing to polish (a blank document): no model call.
  if (!markdown.trim()) return { markdown, engine };
  try {
    const polished = await cleanMarkdown(env, markdown);
    return polished.trim() ? { markdown: polished, engine: engine === "ocr" ? "ocr+llm" : "layout+llm" } : { markdown, engine };
  } catch (err) {
    console.error("llm cleanup failed; answering the deterministic Markdown", err);
    return { markdown, engine };
  }
}
