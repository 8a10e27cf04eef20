import type { Page, PDFOptions } from "@cloudflare/puppeteer";
import type { Env } from "../../env";
import { withPdf } from "../mupdf/core/document";
import { bounded, type Deadline } from "./deadline";
import { isTimeout, pageTimeout } from "./errors";
import { CONTENT_SIZE, HAS_CSS_PAGE_SIZE, HEADINGS } from "./in-page";
import { ensureOutline, type Heading } from "./outline";
import { MAX_LONG_PAGE_PX } from "./limits";
import { evaluateIn, onSettledPage } from "./page-steps";
import { atLeast, HEADER_FOOTER_MIN_MARGIN, MARGIN_PRESETS, type MarginPreset, PAGE_FORMATS, type PageFormat, toMillimetres } from "./paper";
import { renderPage } from "./render";
import { runningTemplates } from "./templates";
import type { LoadOptions, RenderSource } from "./types";

export interface PrintOptions {
  pageFormat?: PageFormat;
  landscape?: boolean;
  margin?: MarginPreset;
  printBackground?: boolean;
  /** Let the document's own CSS @page size decide; by default it does when no page_format was asked for. */
  preferCssPageSize?: boolean;
  /** One page as tall as the content, at the viewport's width. */
  oneLongPage?: boolean;
  pageNumbers?: boolean;
  headerHtml?: string;
  footerHtml?: string;
  scale?: number;
  pageRanges?: string;
  outline?: boolean;
  tagged?: boolean;
}

export interface PrintedPdf {
  pdf: Uint8Array;
  pages: number;
  /** The document's CSS @page size decided the paper (preferCssPageSize and an @page size rule). */
  cssPageSize: boolean;
}

export async function printPdf(env: Env, source: RenderSource, load: LoadOptions, print: PrintOptions): Promise<PrintedPdf> {
  const bytes = await renderPage(env, source, load, async (page, deadline) => {
    const cssPageSize = !print.oneLongPage && (print.preferCssPageSize ?? !print.pageFormat) && (await hasCssPageSize(page, deadline));
    const options = await pdfOptions(page, print, cssPageSize, load, deadline);
    const headings = print.outline ? ((await evaluateIn(page, deadline, "Reading the headings", HEADINGS)) as Heading[]) : [];
    return { pdf: await printPage(page, options, deadline), cssPageSize, headings };
  });
  const pdf = await ensureOutline(bytes.pdf, bytes.headings);
  const pages = await withPdf(pdf, (doc) => doc.countPages());
  return { pdf, pages, cssPageSize: bytes.cssPageSize };
}

async function printPage(page: Page, options: PDFOptions, deadline: Deadline): Promise<Uint8Array> {
  try {
    return new Uint8Array(await onSettledPage(page, deadline, "Printing the page", () => page.pdf({ ...options, timeout: deadline.remaining() })));
  } catch (err) {
    if (isTimeout(err)) throw pageTimeout(deadline.ms, "Printing the page");
    throw err;
  }
}

async function pdfOptions(page: Page, print: PrintOptions, cssPageSize: boolean, load: LoadOptions, deadline: Deadline): Promise<PDFOptions> {
  const templates = runningTemplates(print);
  const side = MARGIN_PRESETS[print.margin ?? "default"];
  const margin = {
    top: templates ? atLeast(side, HEADER_FOOTER_MIN_MARGIN) : side,
    bottom: templates ? atLeast(side, HEADER_FOOTER_MIN_MARGIN) : side,
    left: side,
    right: side,
  };
  const paper = print.oneLongPage ? await longPage(page, load, print.scale ?? 1, margin, deadline) : PAGE_FORMATS[print.pageFormat ?? "A4"];
  return {
    width: paper.width,
    height: paper.height,
    landscape: print.oneLongPage ? false : (print.landscape ?? false),
    margin,
    printBackground: print.printBackground ?? true,
    preferCSSPageSize: cssPageSize,
    displayHeaderFooter: templates !== null,
    ...(templates ?? {}),
    scale: print.scale ?? 1,
    pageRanges: print.oneLongPage ? "1" : (print.pageRanges ?? ""),
    outline: print.outline ?? false,
    tagged: print.tagged ?? false,
  };
}

const PX_PER_MM = 96 / 25.4;

/**
 * The paper for one_long_page: the viewport's width and the document's full
 * height, measured in the print media the PDF is made with, after layout and
 * web fonts (docs/tools/html-to-pdf.md: one continuous page, no pagination). The margins are
 * added around it so the content keeps the width it was measured at.
 */
async function longPage(page: Page, load: LoadOptions, scale: number, margin: Record<"top" | "bottom" | "left" | "right", string>, deadline: Deadline) {
  if (!load.emulatedMedia) await bounded(deadline, "Measuring the page", page.emulateMediaType("print"));
  const { width, height } = (await evaluateIn(page, deadline, "Measuring the page", CONTENT_SIZE)) as { width: number; height: number };
  const px = (length: string) => toMillimetres(length) * PX_PER_MM;
  const paperWidth = Math.ceil(width * scale + px(margin.left) + px(margin.right));
  const paperHeight = Math.min(Math.ceil(height * scale + px(margin.top) + px(margin.bottom)) + 1, MAX_LONG_PAGE_PX);
  return { width: `${paperWidth}px`, height: `${paperHeight}px` };
}

/** Whether any readable style sheet of the document sets `@page { size: ... }`. */
async function hasCssPageSize(page: Page, deadline: Deadline): Promise<boolean> {
  return (await evaluateIn(page, deadline, "Reading the page's CSS", HAS_CSS_PAGE_SIZE)) === true;
}
