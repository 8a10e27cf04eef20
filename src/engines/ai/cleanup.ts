import type { Env } from "../../env";
import { markdownAnswer } from "./answers";
import { AI_BUDGETS } from "./budgets";
import { chunkMarkdown } from "./chunks";
import { guardRewrite } from "./content-guard";
import { chat } from "./provider";

// LLM cleanup of deterministic or OCR Markdown (docs/tools/ai.md: best effort). The
// document goes in heading-bounded chunks; each rewrite must pass the
// content guard, and one failing chunk fails the whole cleanup, so the
// caller answers the deterministic Markdown unchanged.

export const CLEANUP_PROMPT = [
  "You tidy Markdown that a program extracted from a PDF.",
  "Fix broken line wraps, words split by hyphenation, wrong heading levels, list markers and malformed pipe tables.",
  "Keep every word, number and table row; do not summarise, translate, explain, reorder or add anything.",
  "Answer with the corrected Markdown only, no code fences.",
].join(" ");

export class CleanupRejected extends Error {
  override name = "CleanupRejected";
}

export async function cleanMarkdown(env: Env, markdown: string): Promise<string> {
  const chunks = chunkMarkdown(markdown, AI_BUDGETS.cleanupChunkChars);
  const sent = chunks.slice(0, AI_BUDGETS.cleanupMaxChunks);
  const cleaned: string[] = [];
  for (const [i, chunk] of sent.entries()) {
    const answer = await chat(env, {
      kind: "text",
      messages: [
        { role: "system", content: CLEANUP_PROMPT },
        { role: "user", content: chunk },
      ],
      maxTokens: AI_BUDGETS.cleanupMaxTokens,
    });
    const rewrite = markdownAnswer(answer.text);
    const verdict = guardRewrite(chunk, rewrite);
    if (!verdict.ok) throw new CleanupRejected(`chunk ${i + 1} of ${sent.length}: the rewrite ${verdict.reason}`);
    cleaned.push(rewrite);
  }
  // Past the chunk budget the document is answered as the layout engine wrote it.
  return `${[...cleaned, ...chunks.slice(sent.length)].join("\n\n")}\n`;
}
