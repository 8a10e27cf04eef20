import type { Env } from "../../env";
import { renderHtmlToPdf } from "../browser";
import { imageToPdf } from "../mupdf/render/image-pdf";
import { pdfPageTexts, renderPages } from "../mupdf/render/page-images";
import { zipFiles } from "../zip";
import { docxReferenceText, docxToHtml, docxToMarkdown, docxToText } from "./docx-html";
import type { SourceFormat, TargetFormat } from "./formats";
import { OCR_DOCX_ENGINE, pdfToDocx } from "./pdf-docx";
import { checkHtmlSource } from "./text-bounds";
import { htmlText, markdownToPdf, textToPdf, uploadText } from "./text-pdf";
import { textSimilarity } from "./text-similarity";

// Every pair Convert document runs: the one table that routing, the 422 for
// an unknown pair, OpenAPI's target_format description and
// docs/tools/convert-document.md read. `engine` is what `engine_used`
// answers: our own names for what really runs, not the original service's.

export interface ConvertInput {
  bytes: Uint8Array;
  /** The upload's name without its extension: outputs are named after it. */
  stem: string;
  env: Env;
  /** JPEG quality for raster outputs (from quality_preset). */
  jpegQuality: number;
}

export interface Converted {
  data: Uint8Array;
  filename: string;
  contentType: string;
  /** In [0, 1]; what it measures is the pair's `quality`. */
  score: number;
  notes: string[];
  /** What really ran when it is not the pair's `engine` (PDF to DOCX of a scan: `ocr-docx`). */
  engine?: string;
}

export interface Pair {
  source: SourceFormat;
  target: TargetFormat;
  engine: string;
  /** What runs, for the docs and OpenAPI. */
  how: string;
  /** What quality_score measures for this pair. */
  quality: string;
  convert(input: ConvertInput): Promise<Converted>;
}

const PDF = "application/pdf";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const TEXT = "text/plain; charset=utf-8";
const MARKDOWN = "text/markdown; charset=utf-8";
const utf8 = (s: string) => new TextEncoder().encode(s);

const pdfToRaster = (target: "png" | "jpg"): Pair => ({
  source: "pdf",
  target,
  engine: "mupdf-render",
  how: "MuPDF renders each page at 150 dpi; one page gives one image, more give a ZIP of <name>_page-<n> images",
  quality: target === "png" ? "1.0: PNG is lossless at 150 dpi" : "SSIM of the first page's JPEG against its rendering",
  async convert({ bytes, stem, jpegQuality }) {
    const { images, fidelity } = await renderPages(bytes, target, jpegQuality);
    const type = target === "png" ? "image/png" : "image/jpeg";
    if (images.length === 1) return { data: images[0], filename: `${stem}.${target}`, contentType: type, score: fidelity, notes: [] };
    const width = String(images.length).length;
    const files = images.map((data, i) => ({ name: `${stem}_page-${String(i + 1).padStart(width, "0")}.${target}`, data }));
    return { data: zipFiles(files), filename: `${stem}_pages.zip`, contentType: "application/zip", score: fidelity, notes: [] };
  },
});

const imageToPdfPair = (source: SourceFormat): Pair => ({
  source,
  target: "pdf",
  engine: "mupdf-image",
  how:
    source === "jpg"
      ? "the JPEG is embedded as it is (DCTDecode, never re-encoded), one page at its pixel size"
      : "decoded and stored losslessly (Flate), one page at its pixel size",
  quality: "1.0: the picture is kept exactly",
  async convert({ bytes, stem }) {
    const out = await imageToPdf(bytes);
    return { data: out.pdf, filename: `${stem}.pdf`, contentType: PDF, score: 1, notes: out.notes };
  },
});

/** HTML markup through the browser engine (src/engines/browser), scored by text kept. */
async function browserPdf(env: Env, html: string, stem: string, reference: string, opts: Parameters<typeof renderHtmlToPdf>[2]): Promise<Converted> {
  const { pdf } = await renderHtmlToPdf(env, html, opts);
  const { text } = await pdfPageTexts(pdf);
  return { data: pdf, filename: `${stem}.pdf`, contentType: PDF, score: textSimilarity(reference, text), notes: [] };
}

const TEXT_KEPT = "Dice similarity of the output's words to the source's words";

export const PAIRS: readonly Pair[] = [
  {
    source: "pdf",
    target: "docx",
    engine: "mupdf-docx",
    how: "MuPDF structured text laid out as Word paragraphs, runs, ruled tables and pictures, a section per page (docx package)",
    quality: `${TEXT_KEPT} (PDF text by MuPDF, DOCX text by our DOCX reader), times the share of pages that are not scans (a scan read by OCR counts as its mean OCR word confidence; engine_used is then \`ocr-docx\`)`,
    async convert({ bytes, stem }) {
      const out = await pdfToDocx(bytes);
      const engine = out.ocrPages ? OCR_DOCX_ENGINE : undefined;
      return { data: out.docx, filename: `${stem}.docx`, contentType: DOCX, score: out.similarity, notes: out.notes, engine };
    },
  },
  pdfToRaster("png"),
  pdfToRaster("jpg"),
  {
    source: "pdf",
    target: "txt",
    engine: "mupdf-text",
    how: "MuPDF's text layer in reading order, pages separated by form feeds",
    quality: "share of pages that have a text layer (scanned pages need OCR)",
    async convert({ bytes, stem }) {
      const { text, pages, pagesWithText } = await pdfPageTexts(bytes);
      const notes = pagesWithText < pages ? [`${pages - pagesWithText} of ${pages} pages have no text layer`] : [];
      return { data: utf8(text), filename: `${stem}.txt`, contentType: TEXT, score: Math.round((pagesWithText / pages) * 10_000) / 10_000, notes };
    },
  },
  ...(["jpg", "png", "webp", "gif", "bmp", "tiff", "avif"] as const).map(imageToPdfPair),
  {
    source: "txt",
    target: "pdf",
    engine: "mupdf-html",
    how: "MuPDF's HTML engine lays the text out on A4, wrapping and paginating, with the shipped fonts (Latin, Greek, Cyrillic, CJK, Arabic)",
    quality: TEXT_KEPT,
    async convert({ bytes, stem }) {
      const out = await textToPdf(bytes);
      return { data: out.pdf, filename: `${stem}.pdf`, contentType: PDF, score: textSimilarity(out.source, out.text), notes: missingNote(out.missing) };
    },
  },
  {
    source: "md",
    target: "pdf",
    engine: "marked+mupdf-html",
    how: "marked renders CommonMark + GFM to HTML, MuPDF's HTML engine lays it out on A4",
    quality: `${TEXT_KEPT} (source: the rendered Markdown's text)`,
    async convert({ bytes, stem }) {
      const out = await markdownToPdf(bytes);
      return { data: out.pdf, filename: `${stem}.pdf`, contentType: PDF, score: textSimilarity(out.source, out.text), notes: missingNote(out.missing) };
    },
  },
  {
    source: "html",
    target: "pdf",
    engine: "chromium",
    how: "the HTML to PDF browser engine (Browser Rendering), A4 unless the page's CSS @page says otherwise",
    quality: `${TEXT_KEPT} (source: the markup's visible text)`,
    async convert({ bytes, stem, env }) {
      checkHtmlSource(bytes);
      const html = uploadText(bytes);
      return browserPdf(env, html, stem, htmlText(html), { printBackground: true });
    },
  },
  {
    source: "docx",
    target: "pdf",
    engine: "mammoth+chromium",
    how: "mammoth turns the DOCX into HTML (headings, styles, lists, tables, images), Word's page breaks (break runs, w:pageBreakBefore, section ends) as forced breaks, type sizes from its styles, page size and margins from its w:sectPr as CSS @page, printed by the browser engine",
    quality: `${TEXT_KEPT} (source: the DOCX's text by our DOCX reader)`,
    async convert({ bytes, stem, env }) {
      const doc = await docxToHtml(bytes);
      return browserPdf(env, doc.html, stem, docxReferenceText(bytes), { assets: doc.assets, preferCssPageSize: doc.hasPageSize, printBackground: true });
    },
  },
  {
    source: "docx",
    target: "txt",
    engine: "mammoth-text",
    how: "mammoth's raw text, one paragraph a line",
    quality: `${TEXT_KEPT} (source: the DOCX's text by our DOCX reader)`,
    async convert({ bytes, stem }) {
      const text = await docxToText(bytes);
      return { data: utf8(text), filename: `${stem}.txt`, contentType: TEXT, score: textSimilarity(docxReferenceText(bytes), text), notes: [] };
    },
  },
  {
    source: "docx",
    target: "md",
    engine: "mammoth-markdown",
    how: "mammoth's HTML written as GitHub Markdown: headings, paragraphs, emphasis, lists, pipe tables (header from the first row), links; pictures inline as data URIs",
    quality: `${TEXT_KEPT} (source: the DOCX's text by our DOCX reader; pictures not counted)`,
    async convert({ bytes, stem }) {
      const md = await docxToMarkdown(bytes);
      // Pictures travel inside the Markdown as data URIs; their Base64 is not text to measure.
      const prose = md.replace(/!\[[^\]]*\]\(data:[^)]*\)/g, " ");
      return { data: utf8(md), filename: `${stem}.md`, contentType: MARKDOWN, score: textSimilarity(docxReferenceText(bytes), prose), notes: [] };
    },
  },
];

function missingNote(missing: readonly string[]): string[] {
  return missing.length ? [`${missing.length} character(s) no shipped font can draw were left out`] : [];
}

export function findPair(source: SourceFormat, target: TargetFormat): Pair | undefined {
  return PAIRS.find((p) => p.source === source && p.target === target);
}

/** What `engine_used` answers when PDF to DOCX ran on the vision model (engines/ai/vision-docx.ts). */
export const VISION_ENGINE = "vision-docx";

/** Every engine name `engine_used` can answer, the OCR and vision roads' included. */
export function engineNames(): string[] {
  return [...new Set([...PAIRS.map((p) => p.engine), OCR_DOCX_ENGINE, VISION_ENGINE])];
}

/** The table for OpenAPI's target_format: each pair with its engine, what runs and what quality_score measures. */
export function pairTable(): string {
  return PAIRS.map((p) => `${p.source} → ${p.target}: \`${p.engine}\`, ${p.how}; quality_score: ${p.quality}.`).join("\n");
}

/** "pdf → docx, pdf → png, …": the supported pairs as one line (the 422 for an unknown pair). */
export function pairList(): string {
  return PAIRS.map((p) => `${p.source} → ${p.target}`).join(", ");
}
