import type { Env } from "../../env";
import { cleanMarkdown } from "../ai/cleanup";
import { visionMarkdownOfPdf } from "../ai/vision-markdown";

// Where the OCR/AI issue plugs in (decisions.md, "AI and OCR"): production
// uses the Workers AI binding `AI`, local runs and tests an OpenAI-compatible
// endpoint (AI_BASE_URL plus a model name). Each hook is null until that
// issue lands; the Markdown tool says what happens meanwhile.

export function textModelConfigured(env: Env): boolean {
  return "AI" in env || Boolean(env.AI_BASE_URL && env.AI_TEXT_MODEL);
}

export function visionModelConfigured(env: Env): boolean {
  return "AI" in env || Boolean(env.AI_BASE_URL && env.AI_VISION_MODEL);
}

/** LLM polish of deterministic Markdown; answers the new Markdown or throws. */
export const llmCleanup: ((env: Env, markdown: string) => Promise<string>) | null = cleanMarkdown;

/** Vision model reading of a PDF; answers Markdown, or "" when it found nothing. */
export const visionMarkdown: ((env: Env, pdf: Uint8Array) => Promise<string>) | null = visionMarkdownOfPdf;

// OCR needs no seam: it runs inside the Worker (src/engines/ocr, docs/tools/ocr.md).
