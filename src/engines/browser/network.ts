import type { HTTPRequest, Page } from "@cloudflare/puppeteer";
import { isAdHost } from "./ad-hosts";
import { DISABLE_UNGUARDED_NETWORK } from "./in-page";
import { refusalOf, type UrlPolicy } from "./url-policy";

// Every request the page makes passes here (request interception): the
// document itself, each redirect hop (Chromium reports a hop as a new
// request), sub-resources, frames, fetch/XHR. Markup given as html or file is
// served as DOCUMENT_URL with its uploaded assets beside it, so relative
// references ("style.css", "img/logo.png") resolve by name; `.invalid` is a
// reserved TLD (RFC 2606) that never reaches a network. It is an http
// origin on purpose: from an https one, Chromium would block or upgrade every
// http:// image and style sheet of the markup as mixed content.

export const DOCUMENT_ORIGIN = "http://document.invalid";
export const DOCUMENT_URL = `${DOCUMENT_ORIGIN}/index.html`;

export interface Asset {
  data: Uint8Array;
  type: string;
}

export interface NetworkRules {
  policy: UrlPolicy;
  /** The markup served as DOCUMENT_URL (html and file sources). */
  document?: string;
  assets: ReadonlyMap<string, Asset>;
  blockAds: boolean;
  maxBytes: number;
}

/** What the guard saw; read after loading to turn refusals into errors. */
export interface NetworkWatch {
  /** Why the main document (or a redirect of it) was refused. */
  refusedNavigation: string | null;
  /** URLs aborted by the policy (not ads). */
  refused: string[];
  tooLarge: boolean;
  /** WebSockets the page opened despite DISABLE_UNGUARDED_NETWORK. */
  webSockets: string[];
}

export async function guardNetwork(page: Page, rules: NetworkRules): Promise<NetworkWatch> {
  const watch: NetworkWatch = { refusedNavigation: null, refused: [], tooLarge: false, webSockets: [] };
  // A service worker would answer requests without passing interception.
  await page.setBypassServiceWorker(true);
  await page.setRequestInterception(true);
  page.on("request", (req) => {
    decide(page, req, rules, watch).catch(() => abortQuietly(req));
  });
  await watchDevtools(page, rules.maxBytes, watch);
  return watch;
}

async function decide(page: Page, req: HTTPRequest, rules: NetworkRules, watch: NetworkWatch): Promise<void> {
  const raw = req.url();
  if (raw.startsWith("data:") || raw.startsWith("blob:") || raw === "about:blank") return req.continue();
  if (watch.tooLarge) return req.abort("blockedbyclient");
  if (raw.startsWith(`${DOCUMENT_ORIGIN}/`)) return serveLocal(req, new URL(raw), rules);
  const host = URL.canParse(raw) ? new URL(raw).hostname : "";
  if (rules.blockAds && isAdHost(host)) return req.abort("blockedbyclient");
  const refusal = await refusalOf(raw, rules.policy);
  if (refusal === null) return req.continue();
  watch.refused.push(raw);
  if (req.isNavigationRequest() && req.frame() === page.mainFrame()) watch.refusedNavigation = refusal;
  return req.abort("blockedbyclient");
}

function serveLocal(req: HTTPRequest, url: URL, rules: NetworkRules): Promise<void> {
  if (url.href === DOCUMENT_URL && rules.document !== undefined) {
    return req.respond({ status: 200, contentType: "text/html; charset=utf-8", body: rules.document });
  }
  const name = decodeURIComponent(url.pathname.slice(1));
  const asset = rules.assets.get(name) ?? rules.assets.get(name.split("/").pop() ?? "");
  if (!asset) return req.respond({ status: 404, contentType: "text/plain", body: `no uploaded asset named ${name}` });
  return req.respond({ status: 200, contentType: asset.type, body: asset.data });
}

function abortQuietly(req: HTTPRequest): void {
  if (!req.isInterceptResolutionHandled()) req.abort("failed").catch(() => undefined);
}

/**
 * What request interception cannot do. WebSocket handshakes and workers'
 * traffic never pass it (seen: a page and a blob worker reached a loopback
 * WebSocket), and Chromium's blocked-URL list does not stop them either
 * (tried), so those constructors are removed from every frame before its
 * scripts run, and a WebSocket opened anyway is recorded so the render fails.
 * And the bytes the page receives are counted (Network.dataReceived, decoded
 * sizes); past the cap loading stops and later requests are aborted.
 */
async function watchDevtools(page: Page, maxBytes: number, watch: NetworkWatch): Promise<void> {
  await page.evaluateOnNewDocument(DISABLE_UNGUARDED_NETWORK);
  const cdp = await page.createCDPSession();
  await cdp.send("Network.enable");
  cdp.on("Network.webSocketCreated", (e: { url: string }) => {
    watch.webSockets.push(e.url);
  });
  let total = 0;
  cdp.on("Network.dataReceived", (e: { dataLength: number }) => {
    total += e.dataLength;
    if (total <= maxBytes || watch.tooLarge) return;
    watch.tooLarge = true;
    cdp.send("Page.stopLoading").catch(() => undefined);
  });
}
