// Bounds of one render. Browser Rendering bills browser time and a page is
// untrusted input, so every wait is bounded and the bytes a page may pull in
// are capped before they reach the PDF.

/** Page load, waits and printing together (BROWSER_PAGE_TIMEOUT_MS shortens it in tests). */
export const PAGE_TIMEOUT_MS = 30_000;
/** Everything the page loads: document, styles, images, fonts, scripts. */
export const MAX_PAGE_BYTES = 25 * 1024 * 1024;
/** How long a call waits for a browser before answering 503. */
export const ACQUIRE_WAIT_MS = 8_000;
/**
 * How long a browser this call launched may take to accept its connection
 * (about a second on Browser Rendering; a local Chromium starting beside
 * busy ones took over 8 s in the soak). Counted from the launch, so a launch
 * begun late in the acquire wait is not given up as it comes up.
 */
export const LAUNCH_WAIT_MS = 15_000;
/** Browser Rendering closes an idle browser after this (10 minutes is the maximum). */
export const KEEP_ALIVE_MS = 600_000;
/** Default viewport: a common desktop width. */
export const DEFAULT_VIEWPORT = { width: 1280, height: 800 };
/** A full-page screenshot taller than this is cut (a PNG of an endless feed would not fit in memory). */
export const MAX_SCREENSHOT_HEIGHT = 16_384;
/** Chromium cannot print a page taller than 200 inches (14,400 pt); one_long_page stops there. */
export const MAX_LONG_PAGE_PX = 19_200;
