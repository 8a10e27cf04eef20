import { marked } from "marked";
import { decodeUnicodeText } from "../text/decode";
import { withMupdfHtml } from "./mupdf-html";

// Plain text and Markdown to PDF on A4 with MuPDF's HTML engine (no
// browser): text wraps at the margins and flows onto as many pages as it
// needs; every script the shipped fonts cover prints (Latin, Greek,
// Cyrillic, CJK, Arabic with shaping and right-to-left order).

const PAGE = "@page{size:595.28pt 841.89pt;margin:56pt 56pt 60pt 56pt}";

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (css: string, body: string) => `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${PAGE}${css}</style></head><body>${body}</body></html>`;

/** The text of an upload: UTF-8 or UTF-16/32 by BOM (text/decode.ts), line ends normalised. */
export const uploadText = (bytes: Uint8Array): string => decodeUnicodeText(bytes).replace(/\r\n?/g, "\n");

/** One paragraph a line, spaces and tabs kept (pre-wrap), long lines wrapped. */
export function textHtml(text: string): string {
  const lines = text.split("\n").map((l) => (l.trim() === "" ? "<p>&#160;</p>" : `<p>${escapeHtml(l.replace(/\t/g, "    "))}</p>`));
  return page("body{font-family:sans-serif;font-size:11pt}p{margin:0;white-space:pre-wrap;line-height:1.35}", lines.join(""));
}

const MARKDOWN_CSS = [
  "body{font-family:sans-serif;font-size:11pt;line-height:1.4}",
  "p,ul,ol,pre,table,blockquote{margin:0 0 8pt}",
  "h1{font-size:20pt;margin:12pt 0 8pt}h2{font-size:16pt;margin:12pt 0 6pt}h3{font-size:13pt;margin:10pt 0 6pt}h4,h5,h6{font-size:11pt;margin:8pt 0 4pt}",
  "code{font-family:monospace;font-size:9.5pt}pre{font-family:monospace;font-size:9.5pt;background:#f3f3f3;padding:6pt;white-space:pre-wrap}",
  "blockquote{margin-left:12pt;padding-left:8pt;border-left:2pt solid #bbb;color:#444}",
  "table{border-collapse:collapse}th,td{border:0.5pt solid #888;padding:2pt 5pt}th{background:#eee}",
  "hr{border:0;border-top:0.5pt solid #999}",
].join("");

/** CommonMark + GFM (tables, strikethrough) to HTML with marked, on our page. */
export function markdownHtml(markdown: string): string {
  return page(MARKDOWN_CSS, marked.parse(markdown, { async: false, gfm: true }));
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

export const textToPdf = (text: string) => withMupdfHtml(textHtml(text));
export const markdownToPdf = (markdown: string) => withMupdfHtml(markdownHtml(markdown));
