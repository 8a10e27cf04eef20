import type { HTTPResponse, Page } from "@cloudflare/puppeteer";
import type { Env } from "../../env";
import { AD_SLOT_CSS } from "./ad-hosts";
import { bounded, type Deadline } from "./deadline";
import { isTimeout, pageHttpError, pageLoadFailed, pageScriptFailed, pageTimeout, pageTooLarge, urlRefused } from "./errors";
import { FONTS_READY, REMOVE_POPUPS } from "./in-page";
import { DEFAULT_VIEWPORT, MAX_PAGE_BYTES } from "./limits";
import { DOCUMENT_URL, guardNetwork, type NetworkWatch } from "./network";
import { evaluateIn, isNavigationError, onSettledPage, watchDocumentLoads } from "./page-steps";
import type { LoadOptions, RenderSource } from "./types";
import { refusalOf, urlPolicy } from "./url-policy";

/**
 * Checks a url source before any browser is involved, so a refused target
 * costs no browser time and no request is made.
 */
export async function checkSourceUrl(env: Env, raw: string): Promise<void> {
  const refusal = await refusalOf(raw, urlPolicy(env));
  if (refusal) throw urlRefused(`The URL is refused: ${refusal}`);
}

/** Loads `source` into `page` (a fresh page of the render's own context) with every option applied. */
export async function loadPage(env: Env, page: Page, source: RenderSource, opts: LoadOptions, deadline: Deadline, ended: AbortSignal): Promise<NetworkWatch> {
  page.setDefaultTimeout(deadline.remaining());
  const viewport = { width: opts.screenWidth ?? DEFAULT_VIEWPORT.width, height: opts.screenHeight ?? DEFAULT_VIEWPORT.height };
  await bounded(deadline, "Preparing the page", page.setViewport(viewport));
  const watch = await guardNetwork(
    page,
    {
      policy: urlPolicy(env),
      document: source.kind === "markup" ? source.html : undefined,
      assets: source.kind === "markup" ? (source.assets ?? new Map()) : new Map(),
      blockAds: opts.blockAds ?? false,
      maxBytes: MAX_PAGE_BYTES,
    },
    deadline,
    ended,
  );
  watchDocumentLoads(page);
  const response = await navigate(page, source.kind === "url" ? source.url : DOCUMENT_URL, watch, deadline);
  if (opts.failOnHttpStatus && source.kind === "url" && response && response.status() >= 400) throw pageHttpError(response.status());
  // Set after navigation: set before it, Chromium 156 printed with print media anyway (observed).
  if (opts.emulatedMedia) await bounded(deadline, "Preparing the page", page.emulateMediaType(opts.emulatedMedia));
  await settle(page, opts, deadline);
  checkWatch(watch);
  return watch;
}

/** Refusals and caps the guard recorded while the page ran; checked after loading and again after printing. */
export function checkWatch(watch: NetworkWatch): void {
  if (watch.tooLarge) throw pageTooLarge(MAX_PAGE_BYTES);
  if (watch.webSockets.length > 0) throw urlRefused(`The page opened a WebSocket (${watch.webSockets[0]}); rendering allows none.`);
  if (watch.refusedNavigation) throw urlRefused(`The page or one of its redirects or navigations is refused: ${watch.refusedNavigation}`);
}

async function navigate(page: Page, target: string, watch: NetworkWatch, deadline: Deadline): Promise<HTTPResponse | null> {
  try {
    const response = await bounded(deadline, "Loading the page", page.goto(target, { waitUntil: "load", timeout: deadline.remaining() }));
    if (watch.tooLarge) throw pageTooLarge(MAX_PAGE_BYTES);
    return response;
  } catch (err) {
    if (watch.refusedNavigation) throw urlRefused(`The page or one of its redirects is refused: ${watch.refusedNavigation}`);
    if (watch.tooLarge) throw pageTooLarge(MAX_PAGE_BYTES);
    if (isTimeout(err)) throw pageTimeout(deadline.ms, "Loading the page");
    if (err instanceof Error && /net::ERR_/.test(err.message)) throw pageLoadFailed(err.message.split(" at ")[0]);
    // The page navigated itself while loading ("Navigating frame was detached"): what it lands on is waited for by settle().
    if (isNavigationError(err)) return null;
    throw err;
  }
}

/** Web fonts, the caller's waits, then the clean-ups that act on the loaded page. */
async function settle(page: Page, opts: LoadOptions, deadline: Deadline): Promise<void> {
  try {
    if (opts.waitForSelector) {
      const selector = opts.waitForSelector;
      await bounded(deadline, waitName(opts), page.waitForSelector(selector, { timeout: deadline.remaining() }));
    }
    if (opts.waitForExpression) {
      const expression = opts.waitForExpression;
      await bounded(deadline, waitName(opts), page.waitForFunction(expression, { timeout: deadline.remaining(), polling: 100 }));
    }
    if (opts.waitDelayMs) await new Promise((r) => setTimeout(r, Math.min(opts.waitDelayMs ?? 0, deadline.remaining())));
    await evaluateIn(page, deadline, "Waiting for the page's web fonts", FONTS_READY);
  } catch (err) {
    if (isTimeout(err)) throw pageTimeout(deadline.ms, waitName(opts));
    if (isPageScriptError(err)) throw pageScriptFailed(`A wait could not run in the page: ${(err as Error).message.split("\n")[0]}`);
    throw err;
  }
  if (opts.blockAds) await onSettledPage(page, deadline, "Hiding ad slots", () => page.addStyleTag({ content: AD_SLOT_CSS }));
  if (opts.removePopups) await evaluateIn(page, deadline, "Removing popups", REMOVE_POPUPS);
}

/** An error of the caller's selector or expression, as opposed to a browser or protocol failure. */
function isPageScriptError(err: unknown): boolean {
  if (!(err instanceof Error) || isNavigationError(err)) return false;
  return err.name === "SyntaxError" || /Evaluation failed|SyntaxError|not a valid selector/.test(err.message);
}

function waitName(opts: LoadOptions): string {
  if (opts.waitForSelector) return `Waiting for the selector ${opts.waitForSelector}`;
  if (opts.waitForExpression) return "Waiting for wait_for_expression to be true";
  return "Loading the page";
}
