// Running header and footer templates for Chromium's printToPDF. Chromium
// fills the spans with classes pageNumber, totalPages, date, title and url
// itself; a template's default font size is tiny and it cannot load external
// resources, so each is wrapped in a readable base style.

const BASE_STYLE = "font-size:9px;width:100%;margin:0 10mm;font-family:sans-serif;";

function wrap(inner: string, align: "center" | "left"): string {
  return `<div style="${BASE_STYLE}text-align:${align};">${inner}</div>`;
}

export const PAGE_NUMBERS_FOOTER = wrap('Page <span class="pageNumber"></span> of <span class="totalPages"></span>', "center");

/** Chromium prints a date and title header when none is given: an empty one suppresses it. */
export const EMPTY_TEMPLATE = "<span></span>";

export interface RunningTemplates {
  headerTemplate: string;
  footerTemplate: string;
}

/** docs/tools/html-to-pdf.md: footer_html overrides page_numbers; nothing asked gives null (no header or footer). */
export function runningTemplates(opts: { headerHtml?: string; footerHtml?: string; pageNumbers?: boolean }): RunningTemplates | null {
  const footer = opts.footerHtml ? wrap(opts.footerHtml, "left") : opts.pageNumbers ? PAGE_NUMBERS_FOOTER : null;
  const header = opts.headerHtml ? wrap(opts.headerHtml, "left") : null;
  if (!header && !footer) return null;
  return { headerTemplate: header ?? EMPTY_TEMPLATE, footerTemplate: footer ?? EMPTY_TEMPLATE };
}
