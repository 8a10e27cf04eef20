import type { Env } from "../../env";
import { AI_BUDGETS } from "./budgets";
import { layoutMarkdownPages } from "./layout-pages";
import { renderForVision } from "./page-images";
import { markdownOfImages } from "./vision-pages";

// engine=vision for PDF to Markdown: the first AI_BUDGETS.visionMaxPages
// pages read by the vision model, the pages after them by the layout engine
// (a long document costs a bounded number of model calls). "" when the
// model found nothing on any page it read: the tool falls back (docs/tools/ai.md, Vision roads).

export async function visionMarkdownOfPdf(env: Env, bytes: Uint8Array): Promise<string> {
  const { images, pages } = await renderForVision(bytes, AI_BUDGETS.visionMaxPages);
  const seen = await markdownOfImages(env, images);
  if (!seen.some((md) => md.trim())) return "";
  const rest = pages > images.length ? (await layoutMarkdownPages(bytes)).slice(images.length) : [];
  return `${[...seen, ...rest].filter((md) => md.trim()).join("\n\n")}\n`;
}
