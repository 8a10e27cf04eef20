import type { Browser, HTTPResponse, Page } from "@cloudflare/puppeteer";
import type { Env } from "../../env";
import { settingsOf } from "../../settings";
import { AD_SLOT_CSS } from "./ad-hosts";
import { FONTS_READY, REMOVE_POPUPS } from "./in-page";
import { isTimeout, pageHttpError, pageLoadFailed, pageScriptFailed, pageTimeout, pageTooLarge, urlRefused } from "./errors";
import { DEFAULT_VIEWPORT, MAX_PAGE_BYTES, PAGE_TIMEOUT_MS } from "./limits";
import { DOCUMENT_URL, guardNetwork, type NetworkWatch } from "./network";
import type { LoadOptions, RenderSource } from "./types";
import { refusalOf, urlPolicy } from "./url-policy";

/** One time budget for loading, waiting and printing a page. */
export class Deadline {
  readonly ms: number;
  private readonly end: number;
  constructor(ms: number) {
    this.ms = ms;
    this.end = Date.now() + ms;
  }
  remaining(): number {
    return Math.max(1, this.end - Date.now());
  }
}

export function deadlineFor(env: Env): Deadline {
  return new Deadline(settingsOf(env).BROWSER_PAGE_TIMEOUT_MS ?? PAGE_TIMEOUT_MS);
}

/**
 * Checks a url source before any browser is involved, so a refused target
 * costs no browser time and no request is made.
 */
export async function checkSourceUrl(env: Env, raw: string): Promise<void> {
  const refusal = await refusalOf(raw, urlPolicy(env));
  if (refusal) throw urlRefused(`The URL is refused: ${refusal}`);
}

/** Opens a page in `browser` and loads `source` with every option applied; the caller closes it. */
export async function loadPage(env: Env, browser: Browser, source: RenderSource, opts: LoadOptions, deadline: Deadline): Promise<Page> {
  const page = await browser.newPage();
  try {
    await preparePage(env, page, source, opts, deadline);
    return page;
  } catch (err) {
    await page.close().catch(() => undefined);
    throw err;
  }
}

async function preparePage(env: Env, page: Page, source: RenderSource, opts: LoadOptions, deadline: Deadline): Promise<void> {
  page.setDefaultTimeout(deadline.remaining());
  await page.setViewport({ width: opts.screenWidth ?? DEFAULT_VIEWPORT.width, height: opts.screenHeight ?? DEFAULT_VIEWPORT.height });
  const watch = await guardNetwork(page, {
    policy: urlPolicy(env),
    document: source.kind === "markup" ? source.html : undefined,
    assets: source.kind === "markup" ? (source.assets ?? new Map()) : new Map(),
    blockAds: opts.blockAds ?? false,
    maxBytes: MAX_PAGE_BYTES,
  });
  const response = await navigate(page, source.kind === "url" ? source.url : DOCUMENT_URL, watch, deadline);
  if (opts.failOnHttpStatus && source.kind === "url" && response && response.status() >= 400) throw pageHttpError(response.status());
  // Set after navigation: set before it, Chromium 156 printed with print media anyway (observed).
  if (opts.emulatedMedia) await page.emulateMediaType(opts.emulatedMedia);
  await settle(page, opts, deadline);
  if (watch.tooLarge) throw pageTooLarge(MAX_PAGE_BYTES);
  if (watch.webSockets.length > 0) throw urlRefused(`The page opened a WebSocket (${watch.webSockets[0]}); rendering allows none.`);
}

async function navigate(page: Page, target: string, watch: NetworkWatch, deadline: Deadline): Promise<HTTPResponse | null> {
  try {
    const response = await page.goto(target, { waitUntil: "load", timeout: deadline.remaining() });
    if (watch.tooLarge) throw pageTooLarge(MAX_PAGE_BYTES);
    return response;
  } catch (err) {
    if (watch.refusedNavigation) throw urlRefused(`The page or one of its redirects is refused: ${watch.refusedNavigation}`);
    if (watch.tooLarge) throw pageTooLarge(MAX_PAGE_BYTES);
    if (isTimeout(err)) throw pageTimeout(deadline.ms, "Loading the page");
    if (err instanceof Error && /net::ERR_/.test(err.message)) throw pageLoadFailed(err.message.split(" at ")[0]);
    throw err;
  }
}

/** Web fonts, the caller's waits, then the clean-ups that act on the loaded page. */
async function settle(page: Page, opts: LoadOptions, deadline: Deadline): Promise<void> {
  try {
    if (opts.waitForSelector) await page.waitForSelector(opts.waitForSelector, { timeout: deadline.remaining() });
    if (opts.waitForExpression) await page.waitForFunction(opts.waitForExpression, { timeout: deadline.remaining(), polling: 100 });
    if (opts.waitDelayMs) await new Promise((r) => setTimeout(r, Math.min(opts.waitDelayMs ?? 0, deadline.remaining())));
    await page.evaluate(FONTS_READY);
  } catch (err) {
    if (isTimeout(err)) throw pageTimeout(deadline.ms, waitName(opts));
    if (isPageScriptError(err)) throw pageScriptFailed(`A wait could not run in the page: ${(err as Error).message.split("\n")[0]}`);
    throw err;
  }
  if (opts.blockAds) await page.addStyleTag({ content: AD_SLOT_CSS });
  if (opts.removePopups) await page.evaluate(REMOVE_POPUPS);
}

/** An error of the caller's selector or expression, as opposed to a browser or protocol failure. */
function isPageScriptError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === "SyntaxError" || /Evaluation failed|SyntaxError|not a valid selector/.test(err.message);
}

function waitName(opts: LoadOptions): string {
  if (opts.waitForSelector) return `Waiting for the selector ${opts.waitForSelector}`;
  if (opts.waitForExpression) return "Waiting for wait_for_expression to be true";
  return "Loading the page";
}
