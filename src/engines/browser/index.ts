import type { Env } from "../../env";
import { ApiError } from "../../errors";
import type { Asset } from "./network";
import { pageFormatNamed } from "./paper";
import { printPdf } from "./pdf";

// The browser engine: HTML (markup or a URL) to PDF or PNG with Browser
// Rendering. Callers give the BROWSER binding's env and the inputs and get
// bytes back; failures are ApiErrors (errors.ts) the tool pipeline answers
// and refunds as they are.

export type { Asset } from "./network";
export { PAGE_FORMAT_NAMES, pageFormatNamed, type PageFormat, type MarginPreset } from "./paper";
export { printPdf, type PrintOptions, type PrintedPdf } from "./pdf";
export { screenshotPng, type ScreenshotOptions } from "./screenshot";
export { checkSourceUrl } from "./load";
export type { LoadOptions, RenderSource } from "./types";

/** The seam for other tools (Convert document): markup in, PDF out. */
export interface HtmlPdfOptions {
  /** A0–A6, Letter, Legal, Tabloid, Ledger in any letter case; default A4. */
  pageFormat?: string;
  landscape?: boolean;
  margin?: "none" | "small" | "default" | "large";
  printBackground?: boolean;
  /** Let the markup's CSS @page size decide the paper; by default it does when pageFormat is not given. */
  preferCssPageSize?: boolean;
  /** Files the markup references by name (images, style sheets, fonts), served beside it. */
  assets?: Map<string, { data: Uint8Array; type: string }>;
}

/**
 * Renders markup to PDF. External references obey the same rules as HTML to
 * PDF (no private addresses); assets are served by name. Throws an
 * ApiError: validation_failed for an unknown pageFormat, browser_unavailable
 * (503) when no browser can be had, page_load_timeout and friends.
 */
export async function renderHtmlToPdf(env: Env, html: string, opts: HtmlPdfOptions = {}): Promise<{ pdf: Uint8Array; pages: number }> {
  const pageFormat = opts.pageFormat === undefined ? undefined : pageFormatNamed(opts.pageFormat);
  if (pageFormat === null) throw new ApiError("validation_failed", `Unknown page format ${opts.pageFormat}.`);
  const assets: ReadonlyMap<string, Asset> = opts.assets ?? new Map();
  const { pdf, pages } = await printPdf(
    env,
    { kind: "markup", html, assets },
    {},
    {
      pageFormat,
      landscape: opts.landscape,
      margin: opts.margin,
      printBackground: opts.printBackground,
      preferCssPageSize: opts.preferCssPageSize,
    },
  );
  return { pdf, pages };
}
export { assetMap, assetType } from "./assets";
