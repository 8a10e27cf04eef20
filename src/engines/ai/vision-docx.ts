import type { Env } from "../../env";
import { writeDocx } from "../convert/pdf-docx/write-docx";
import { textSimilarity } from "../convert/text-similarity";
import { docxBodyText } from "../docx/body-text";
import { readDocxParts } from "../docx/package";
import { pdfPageTexts } from "../mupdf/render/page-images";
import { AI_BUDGETS } from "./budgets";
import { layoutMarkdownPages } from "./layout-pages";
import { pagePlanOfMarkdown } from "./markdown-plan";
import { renderForVision } from "./page-images";
import { markdownOfImages } from "./vision-pages";

// Vision PDF to DOCX ("vision-docx"): each page's Markdown from the vision
// model becomes a page plan for the existing DOCX writer, one section per
// source page at its size. Pages past AI_BUDGETS.visionMaxPages come from
// the layout engine's Markdown. Null when the model found nothing: the tool
// runs the deterministic converter instead.

export interface VisionDocx {
  docx: Uint8Array;
  /** Dice similarity to the PDF's text layer; with no text layer (a scan), the share of pages the model read text on. */
  score: number;
  notes: string[];
}

export async function visionDocxOfPdf(env: Env, bytes: Uint8Array): Promise<VisionDocx | null> {
  const { images, pages, sizes } = await renderForVision(bytes, AI_BUDGETS.visionMaxPages);
  const seen = await markdownOfImages(env, images);
  if (!seen.some((md) => md.trim())) return null;
  const notes: string[] = [];
  let markdown = seen;
  if (pages > images.length) {
    markdown = [...seen, ...(await layoutMarkdownPages(bytes)).slice(images.length)];
    notes.push(
      `pages ${images.length + 1}-${pages} were converted from the text layer: the vision model reads at most ${AI_BUDGETS.visionMaxPages} pages a call`,
    );
  }
  const docx = await writeDocx(markdown.map((md, i) => pagePlanOfMarkdown(md, sizes[i][0], sizes[i][1])));
  const written = docxBodyText(readDocxParts(docx, ["word/document.xml"]).get("word/document.xml") ?? "");
  const source = await pdfPageTexts(bytes);
  const score = source.pagesWithText ? textSimilarity(source.text, written) : seen.filter((md) => md.trim()).length / seen.length;
  return { docx, score: Math.round(score * 10_000) / 10_000, notes };
}
