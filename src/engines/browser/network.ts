import type { CDPSession, HTTPRequest, Page } from "@cloudflare/puppeteer";
import { isAdHost } from "./ad-hosts";
import { bounded, type Deadline } from "./deadline";
import { type ByteBudget, respondThroughFetch } from "./fetch-through";
import { DISABLE_UNGUARDED_NETWORK } from "./in-page-guard";
import "./respond-body";
import { refusalOf, type UrlPolicy } from "./url-policy";

// Every request the page makes passes here (request interception): the
// document itself, each redirect hop (Chromium reports a hop as a new
// request), sub-resources, frames, fetch/XHR, CORS preflights. What the
// policy approves is fetched by the Worker and answered to the browser
// (fetch-through.ts); only data: and blob: URLs, which never reach a
// network, are left to Chromium. Markup given as html or file is
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
  /** Why the main document (or a redirect of it, or a later navigation of the page) was refused. */
  refusedNavigation: string | null;
  /** URLs aborted by the policy (not ads). */
  refused: string[];
  tooLarge: boolean;
  /** WebSockets the page opened despite DISABLE_UNGUARDED_NETWORK. */
  webSockets: string[];
}

/** `ended` aborts the render's fetches still under way when it is over (their answers would go to a closed page). */
export async function guardNetwork(page: Page, rules: NetworkRules, deadline: Deadline, ended: AbortSignal): Promise<NetworkWatch> {
  const watch: NetworkWatch = { refusedNavigation: null, refused: [], tooLarge: false, webSockets: [] };
  const budget: ByteBudget = { max: rules.maxBytes, used: 0, exceeded: false };
  const signal = AbortSignal.any([ended, AbortSignal.timeout(deadline.remaining())]);
  // A service worker would answer requests without passing interception.
  await bounded(deadline, "Preparing the page", page.setBypassServiceWorker(true));
  await bounded(deadline, "Preparing the page", page.setRequestInterception(true));
  const cdp = await watchDevtools(page, watch, deadline);
  page.on("request", (req) => {
    decide(page, req, rules, watch, { budget, signal })
      .then(() => {
        if (!budget.exceeded || watch.tooLarge) return;
        // Past the cap: stop loading, and every later request is aborted.
        watch.tooLarge = true;
        cdp.send("Page.stopLoading").catch(() => undefined);
      })
      .catch(() => abortQuietly(req));
  });
  return watch;
}

async function decide(page: Page, req: HTTPRequest, rules: NetworkRules, watch: NetworkWatch, fetching: { budget: ByteBudget; signal: AbortSignal }) {
  const raw = req.url();
  if (raw.startsWith("data:") || raw.startsWith("blob:") || raw === "about:blank") return req.continue();
  if (watch.tooLarge) return req.abort("blockedbyclient");
  if (raw.startsWith(`${DOCUMENT_ORIGIN}/`)) return serveLocal(req, new URL(raw), rules);
  const host = URL.canParse(raw) ? new URL(raw).hostname : "";
  if (rules.blockAds && isAdHost(host)) return req.abort("blockedbyclient");
  const refusal = await refusalOf(raw, rules.policy);
  if (refusal === null) return respondThroughFetch(req, fetching.budget, fetching.signal);
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
 * WebSocket), so those constructors and the other ways out (in-page-guard.ts)
 * are removed from every frame before its scripts run, and a WebSocket
 * opened anyway is recorded so the render fails. The page's bytes are counted
 * where they enter: the Worker's fetches (fetch-through.ts).
 */
async function watchDevtools(page: Page, watch: NetworkWatch, deadline: Deadline): Promise<CDPSession> {
  await bounded(deadline, "Preparing the page", page.evaluateOnNewDocument(DISABLE_UNGUARDED_NETWORK));
  const cdp = await bounded(deadline, "Preparing the page", page.createCDPSession());
  await bounded(deadline, "Preparing the page", cdp.send("Network.enable"));
  cdp.on("Network.webSocketCreated", (e: { url: string }) => {
    watch.webSockets.push(e.url);
  });
  return cdp;
}
