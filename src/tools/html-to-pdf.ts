import { z } from "zod";
import {
  assetMap,
  checkSourceUrl,
  type LoadOptions,
  PAGE_FORMAT_NAMES,
  type PageFormat,
  pageFormatNamed,
  printPdf,
  type RenderSource,
} from "../engines/browser";
import { assetSetProblem } from "../engines/browser/asset-names";
import type { Env } from "../env";
import { withZipEstimate } from "./memory-estimate";
import { BROWSER_PROBLEMS } from "./problems";
import { defineTool } from "./define";
import { formBool, formInt, formNumber, upload, uploads } from "./fields";

// HTML to PDF (docs/tools/html-to-pdf.md) with Gotenberg-style additions. The source fields and
// load options are shared with HTML preview (html-preview.ts).

const d = (description: string) => ({ description });

/** A4, Letter, Legal, A3 and so on, in any letter case; unknown is a 422 (docs/tools/html-to-pdf.md). */
const pageFormat = z
  .string()
  .transform((v, ctx) => {
    const f = pageFormatNamed(v);
    if (!f) ctx.addIssue({ code: "custom", message: `Unknown page format; use one of ${PAGE_FORMAT_NAMES.join(", ")}.` });
    return f as PageFormat;
  })
  .meta({ type: "string", enum: PAGE_FORMAT_NAMES, description: "Paper size, default A4; ignored when one_long_page is true." });

const PAGE_RANGES = /^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/;

/** Where the page comes from, and how it is loaded: shared by HTML to PDF and HTML preview. */
export const sourceFields = {
  file: upload({ extensions: [".html", ".htm"], wrongType: "validation_failed" })
    .optional()
    .meta(d("An .html file; highest precedence (file > html > url).")),
  html: z.string().optional().meta(d("Raw markup, used when there is no file.")),
  url: z.string().optional().meta(d("http or https URL, used when there is neither file nor html; private, loopback and reserved targets are refused.")),
  files: uploads()
    .superRefine(checkAssetParts)
    .optional()
    .meta({
      type: "array",
      items: { type: "string", format: "binary" },
      description:
        "Beyond the original API, as Gotenberg's files: assets beside an html or file source (style sheets, images, fonts), one part each, referenced by file name. " +
        "At most 1,000 assets and 50 MiB with the ZIP's; a repeated, absolute or '..' name is 422, more is 413. " +
        "With no other source, a part named index.html is the page.",
    }),
  assets: upload({ extensions: [".zip"], wrongType: "validation_failed" })
    .optional()
    .meta(
      d(
        "Beyond the original API: a ZIP of assets beside an html or file source, referenced by their paths in the ZIP; may be sent with files (one set: no name twice).",
      ),
    ),
  screen_width: formInt({ min: 200, max: 5000 }).optional().meta(d("Viewport width in CSS px; default 1280.")),
  block_ads: formBool(false).meta(d("Best effort: requests to a built-in list of ad networks are aborted, empty ad slots hidden.")),
  remove_popups: formBool(false).meta(d("Best effort: cookie banners, modals and high z-index fixed overlays are removed before rendering.")),
  wait_delay: formInt({ min: 0, max: 10_000 }).optional().meta(d("Beyond the original API: milliseconds to wait after the page has loaded.")),
  wait_for_selector: z.string().max(500).optional().meta(d("Beyond the original API: wait until an element matches this CSS selector.")),
  wait_for_expression: z.string().max(2000).optional().meta(d("Beyond the original API: wait until this JavaScript expression is truthy in the page.")),
  emulated_media: z.enum(["print", "screen"]).optional().meta(d("Beyond the original API: CSS media type to render with; PDFs default to print.")),
  fail_on_http_status: formBool(false).meta(d("Beyond the original API: a url source whose page answers 4xx or 5xx fails with 422 page_http_error.")),
};

/** Names, count and bytes of the file parts, before any browser or debit; the ZIP's entries join them once it is opened. */
function checkAssetParts(files: File[], ctx: z.RefinementCtx): void {
  const problem = assetSetProblem(files.map((f) => ({ name: f.name, size: f.size })));
  if (problem)
    ctx.addIssue({ code: "custom", message: problem.message, params: { code: problem.kind === "too_large" ? "payload_too_large" : "validation_failed" } });
}

/** Gotenberg's convention: a `files` part named index.html is the page when no other source is given. */
const INDEX_HTML = "index.html";
const indexPart = (files: File[] | undefined) => files?.find((f) => f.name === INDEX_HTML);

/** Exactly one source is used; none given is a 422 (docs/tools/html-to-pdf.md). */
export function requireSource(v: { file?: File; html?: string; url?: string; files?: File[] }, ctx: z.RefinementCtx): void {
  if (!v.file && v.html === undefined && !v.url && !indexPart(v.files)) {
    ctx.addIssue({ code: "custom", path: ["file"], message: "Provide a file, html or url (or a files part named index.html)." });
  }
}

const sourceSchema = z.object(sourceFields);
type SourceInput = z.output<typeof sourceSchema>;

/** The source by precedence file > html > url > files' index.html; lower sources are never read or fetched. */
export async function resolveSource(env: Env, input: SourceInput): Promise<{ from: "file" | "html" | "url"; source: RenderSource }> {
  if (input.file) return { from: "file", source: { kind: "markup", html: await input.file.text(), assets: await readAssets(input) } };
  if (input.html !== undefined) return { from: "html", source: { kind: "markup", html: input.html, assets: await readAssets(input) } };
  const index = indexPart(input.files);
  if (!input.url && index) return { from: "file", source: { kind: "markup", html: await index.text(), assets: await readAssets(input) } };
  const url = input.url ?? "";
  await checkSourceUrl(env, url);
  return { from: "url", source: { kind: "url", url } };
}

async function readAssets(input: SourceInput) {
  const bytes = async (f: File) => new Uint8Array(await f.arrayBuffer());
  const files = await Promise.all((input.files ?? []).map(async (f) => ({ name: f.name, data: await bytes(f) })));
  return assetMap(files, input.assets ? [await bytes(input.assets)] : []);
}

export function loadOptionsOf(input: SourceInput): LoadOptions {
  return {
    screenWidth: input.screen_width,
    blockAds: input.block_ads,
    removePopups: input.remove_popups,
    waitDelayMs: input.wait_delay,
    waitForSelector: input.wait_for_selector,
    waitForExpression: input.wait_for_expression,
    emulatedMedia: input.emulated_media,
    failOnHttpStatus: input.fail_on_http_status,
  };
}

/** Bad assets are the caller's to fix: a ZIP that is not one is a 422, too many bytes a 413. */
export const HTML_ENGINE_ERRORS = { invalid_input: "validation_failed", too_large: "payload_too_large" } as const;

export const htmlToPdf = defineTool({
  id: "html-to-pdf",
  name: "HTML to PDF",
  method: "post",
  path: "/api/v1/html/to-pdf",
  body: "multipart",
  summary: "Render an HTML file, markup or a URL to PDF with Browser Rendering.",
  operations: [{ key: "html.to_pdf", name: "HTML to PDF", credits: 40, access: "login" }],
  engineErrors: HTML_ENGINE_ERRORS,
  // An assets ZIP is unpacked in the isolate: its cap is reserved beside the uploads.
  memory: (input) => withZipEstimate(input, input.assets !== undefined),
  problems: [...BROWSER_PROBLEMS],
  request: z
    .object({
      ...sourceFields,
      page_format: pageFormat.optional(),
      landscape: formBool(false),
      margin: z.enum(["none", "small", "default", "large"]).default("default").meta(d("none 0, small 10 mm, default 20 mm, large 30 mm on all four sides.")),
      print_background: formBool(true),
      one_long_page: formBool(false).meta(d("One page as wide as the viewport and as tall as the content, measured after layout and web fonts.")),
      page_numbers: formBool(false).meta(d("A 'Page X of Y' footer; footer_html overrides it.")),
      header_html: z.string().max(20_000).optional().meta(d("Running header; spans with classes pageNumber, totalPages, date, title, url are filled in.")),
      footer_html: z.string().max(20_000).optional().meta(d("Running footer, same spans; overrides page_numbers.")),
      scale: formNumber({ min: 0.1, max: 2 }).optional().meta(d("Beyond the original API: rendering scale, 0.1 to 2; default 1.")),
      page_ranges: z
        .string()
        .regex(PAGE_RANGES, "Use page numbers and ranges such as 1-3,5.")
        .optional()
        .meta(d("Beyond the original API: pages to keep, e.g. '1-3,5'.")),
      prefer_css_page_size: z
        .enum(["true", "false"])
        .optional()
        .transform((v) => (v === undefined ? undefined : v === "true"))
        .meta(d("Beyond the original API: let the document's CSS @page size decide the paper. Default: true when page_format is not given, false when it is.")),
      outline: formBool(false).meta(d("Beyond the original API: bookmarks from the document's headings.")),
      tagged: formBool(false).meta(d("Beyond the original API: a tagged (accessible) PDF with a structure tree.")),
    })
    .superRefine(requireSource),
  response: z.object({
    success: z.boolean(),
    url: z.string(),
    meta: z.object({
      source: z.enum(["file", "html", "url"]),
      page_format: z.string().meta(d("The paper used: a format name, 'css' when the document's @page size decided, or 'one_long_page'.")),
      landscape: z.boolean(),
      output_bytes: z.number().int(),
      repaginated_from_css_canvas: z.boolean().meta(d("True when the document's own CSS @page size decided the pagination.")),
      processing_time_ms: z.number().int(),
      pages: z.number().int().meta(d("Beyond the original API: pages in the PDF.")),
    }),
    credits_charged: z.number().int(),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const { from, source } = await resolveSource(ctx.env, input);
    const printed = await printPdf(ctx.env, source, loadOptionsOf(input), {
      pageFormat: input.page_format,
      landscape: input.landscape,
      margin: input.margin,
      printBackground: input.print_background,
      preferCssPageSize: input.prefer_css_page_size,
      oneLongPage: input.one_long_page,
      pageNumbers: input.page_numbers,
      headerHtml: input.header_html,
      footerHtml: input.footer_html,
      scale: input.scale,
      pageRanges: input.page_ranges,
      outline: input.outline,
      tagged: input.tagged,
    });
    const stored = await ctx.store({
      filename: outputName(input.file?.name ?? (from === "file" ? INDEX_HTML : undefined)),
      contentType: "application/pdf",
      data: printed.pdf,
    });
    const pageFormatUsed = input.one_long_page ? "one_long_page" : printed.cssPageSize ? "css" : (input.page_format ?? "A4");
    return {
      body: {
        success: true,
        url: stored.url,
        meta: {
          source: from,
          page_format: pageFormatUsed,
          landscape: input.one_long_page ? false : input.landscape,
          output_bytes: printed.pdf.length,
          repaginated_from_css_canvas: printed.cssPageSize,
          processing_time_ms: Math.round(performance.now() - started),
          pages: printed.pages,
        },
      },
    };
  },
});

function outputName(uploaded: string | undefined): string {
  const stem = uploaded ? uploaded.replace(/\.html?$/i, "") : "page";
  return `${stem || "page"}.pdf`;
}
