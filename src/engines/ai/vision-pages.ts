import type { Env } from "../../env";
import { markdownAnswer, NOTHING_FOUND, stripFence } from "./answers";
import { AI_BUDGETS } from "./budgets";
import { chat } from "./provider";
import type { ChatImage } from "./types";

// Page images to Markdown, a page at a time in the model's answer: batches
// of at most AI_BUDGETS.visionPagesPerCall images a call, each page's
// Markdown introduced by a marker line we can split on.

const MARKER = /^<!--\s*page\s+(\d+)\s*-->\s*$/gim;

export const VISION_MARKDOWN_PROMPT = [
  "You transcribe images of PDF pages into GitHub-flavoured Markdown.",
  "Keep every word that is on the page, in reading order; do not summarise, translate, explain or add anything.",
  "Use # headings for titles, - for bullet lists, GitHub pipe tables for tables, and plain paragraphs for prose.",
  "Start each page with a line <!-- page N --> where N is the page number given in the request.",
  `A page with no readable text is answered with its marker line and ${NOTHING_FOUND}.`,
  "Answer with the Markdown only, no code fences.",
].join(" ");

/** One vision call's answer and the 1-based page numbers of the images it was given. */
export interface VisionBatch {
  text: string;
  pages: number[];
}

/**
 * Sends page images to the vision model at most AI_BUDGETS.visionPagesPerCall
 * a call, telling it the page numbers, and answers each call's text.
 */
export async function askVisionInBatches(env: Env, images: ChatImage[], systemPrompt: string, json = false): Promise<VisionBatch[]> {
  const out: VisionBatch[] = [];
  for (let first = 0; first < images.length; first += AI_BUDGETS.visionPagesPerCall) {
    const batch = images.slice(first, first + AI_BUDGETS.visionPagesPerCall);
    const pages = batch.map((_, i) => first + i + 1);
    const answer = await chat(env, {
      kind: "vision",
      messages: [
        { role: "system", content: systemPrompt },
        { role: "user", content: `Pages ${pages.join(", ")}, one image each, in order.` },
      ],
      images: batch,
      json,
      maxTokens: AI_BUDGETS.visionMaxTokens,
    });
    out.push({ text: answer.text, pages });
  }
  return out;
}

/** Markdown per image; "" for a page where the model found nothing. */
export async function markdownOfImages(env: Env, images: ChatImage[]): Promise<string[]> {
  return (await askVisionInBatches(env, images, VISION_MARKDOWN_PROMPT)).flatMap((b) => splitPages(b.text, b.pages));
}

/** The answer cut at its page markers; without markers, all of it belongs to the batch's first page. */
export function splitPages(answer: string, numbers: number[]): string[] {
  // A fence around the whole answer would otherwise end up inside the last page.
  const text = stripFence(answer);
  const pages = new Map<number, string>();
  const marks = [...text.matchAll(MARKER)];
  if (!marks.length) pages.set(numbers[0], text);
  marks.forEach((m, i) => {
    const n = Number(m[1]);
    const body = text.slice((m.index ?? 0) + m[0].length, i + 1 < marks.length ? marks[i + 1].index : text.length);
    // A page named twice or outside the batch is appended to the nearest page we asked for, never dropped.
    const target = numbers.includes(n) ? n : numbers[Math.min(i, numbers.length - 1)];
    pages.set(target, [pages.get(target), body].filter(Boolean).join("\n\n"));
  });
  return numbers.map((n) => markdownAnswer(pages.get(n) ?? ""));
}
