import { marked } from "marked";
import { decodeUnicodeText } from "../text/decode";
import { type Flow, type LaidOut, layoutFlow } from "./flow-layout";
import { checkTextSource } from "./text-bounds";

// Plain text and Markdown to PDF on A4 with MuPDF's HTML engine (no
// browser): text wraps at the margins and flows onto as many pages as it
// needs; every script the shipped fonts cover prints (Latin, Greek,
// Cyrillic, CJK, Arabic with shaping and right-to-left order). Sources are
// bounded before they are decoded (text-bounds.ts) and laid out a stretch
// at a time (flow-layout.ts); lines are read one by one, never split into
// an array of the whole text.

// The page's margins are all the margin there is: a body margin would sit
// at the top of the first page of every chunk of a long document but not at
// the top of pages that follow a break (flow-layout.ts).
const PAGE = "@page{size:595.28pt 841.89pt;margin:56pt 56pt 60pt 56pt}";

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const head = (css: string) => `<meta charset="utf-8"><style>${PAGE}${css}</style>`;

/** The text of an upload: UTF-8 or UTF-16/32 by BOM (text/decode.ts), line ends normalised. */
export const uploadText = (bytes: Uint8Array): string => decodeUnicodeText(bytes).replace(/\r\n?/g, "\n");

/** The lines of a text, one at a time. */
export function* textLines(text: string): Generator<string> {
  for (let at = 0; ; ) {
    const nl = text.indexOf("\n", at);
    yield text.slice(at, nl < 0 ? text.length : nl);
    if (nl < 0) return;
    at = nl + 1;
  }
}

const TEXT_CSS = "body{margin:0;font-family:sans-serif;font-size:11pt}p{margin:0;white-space:pre-wrap;line-height:1.35}";

/** One paragraph a line, spaces and tabs kept (pre-wrap), long lines wrapped; an empty line keeps its height. */
function* textBlocks(text: string): Generator<string> {
  for (const l of textLines(text)) yield l.trim() === "" ? "<p>&#160;</p>" : `<p>${escapeHtml(l.replace(/\t/g, "    "))}</p>`;
}

const MARKDOWN_CSS = [
  "body{margin:0;font-family:sans-serif;font-size:11pt;line-height:1.4}",
  "p,ul,ol,pre,table,blockquote{margin:0 0 8pt}",
  "h1{font-size:20pt;margin:12pt 0 8pt}h2{font-size:16pt;margin:12pt 0 6pt}h3{font-size:13pt;margin:10pt 0 6pt}h4,h5,h6{font-size:11pt;margin:8pt 0 4pt}",
  "code{font-family:monospace;font-size:9.5pt}pre{font-family:monospace;font-size:9.5pt;background:#f3f3f3;padding:6pt;white-space:pre-wrap}",
  "blockquote{margin-left:12pt;padding-left:8pt;border-left:2pt solid #bbb;color:#444}",
  "table{border-collapse:collapse}th,td{border:0.5pt solid #888;padding:2pt 5pt}th{background:#eee}",
  "hr{border:0;border-top:0.5pt solid #999}",
].join("");

/** CommonMark + GFM (tables, strikethrough) rendered by marked one top-level block at a time: the blocks the layout pages. */
export function markdownBlocks(markdown: string): string[] {
  const tokens = marked.lexer(markdown, { gfm: true });
  const blocks: string[] = [];
  for (const token of tokens) {
    const html = marked.parser([token], { gfm: true }).trim();
    if (html) blocks.push(html);
  }
  return blocks;
}

/** Visible text of HTML (tags out, entities decoded): the yardstick for HTML sources. */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " })[e] ?? " ");
}

export interface TextPdf extends LaidOut {
  /** What the PDF should say: the text, or the rendered Markdown's visible text. */
  source: string;
}

/** What a text is laid out as: its page CSS and one paragraph a line. */
export const textFlow = (text: string): Flow => ({ head: head(TEXT_CSS), blocks: textBlocks(text) });

/** Blocks MARKDOWN_CSS gives no top margin: where a long document may be laid out anew (flow-layout.ts). */
const NO_TOP_MARGIN = /^<(p|ul|ol|pre|table|blockquote)\b/;

/** What Markdown is laid out as: its page CSS and marked's blocks. */
export const markdownFlow = (markdown: string): Flow & { blocks: string[] } => ({
  head: head(MARKDOWN_CSS),
  blocks: markdownBlocks(markdown),
  cutBefore: (block) => NO_TOP_MARGIN.test(block),
});

export async function textToPdf(bytes: Uint8Array): Promise<TextPdf> {
  checkTextSource(bytes, "text");
  const text = uploadText(bytes);
  return { ...(await layoutFlow(textFlow(text))), source: text };
}

export async function markdownToPdf(bytes: Uint8Array): Promise<TextPdf> {
  checkTextSource(bytes, "markdown");
  const flow = markdownFlow(uploadText(bytes));
  const laid = await layoutFlow(flow);
  return { ...laid, source: flow.blocks.map(htmlText).join(" ") };
}
