import type { Browser, CDPSession } from "@cloudflare/puppeteer";
import { bounded, type Deadline } from "./deadline";

// The backstop behind the page's request interception, on the browser target
// itself (one connection holds a Browser Rendering browser at a time, so
// whatever this session sees belongs to the current render):
//
// - Fetch interception at browser level pauses every request that reaches
//   the network stack without having been answered by the page's handler,
//   which answers every http(s) request itself (fetch-through.ts). So a
//   request seen here escaped the page's guard (a popup's page, a target the
//   page handler is not attached to) and is failed. Observed: a page-level
//   continue() is paused here next; a page-level respond() never is.
// - Pages with an opener (window.open, target=_blank) are closed as soon as
//   they exist; in-page-guard.ts stops the usual ways of opening them first.

export interface BrowserWatch {
  /** URLs that reached the browser-level backstop (each was failed). */
  escaped: string[];
  /** Popups closed. */
  popups: number;
  /** Ends the backstop before the connection is released. */
  detach(): Promise<void>;
}

export async function guardBrowser(browser: Browser, deadline: Deadline): Promise<BrowserWatch> {
  const cdp: CDPSession = await bounded(deadline, "Preparing the browser", browser.target().createCDPSession());
  const watch: BrowserWatch = { escaped: [], popups: 0, detach: () => cdp.detach().catch(() => undefined) };
  cdp.on("Fetch.requestPaused", (e) => {
    watch.escaped.push(e.request.url);
    cdp.send("Fetch.failRequest", { requestId: e.requestId, errorReason: "BlockedByClient" }).catch(() => undefined);
  });
  cdp.on("Target.targetCreated", ({ targetInfo }) => {
    if (targetInfo.type !== "page" || !targetInfo.openerId) return;
    watch.popups++;
    cdp.send("Target.closeTarget", { targetId: targetInfo.targetId }).catch(() => undefined);
  });
  await bounded(
    deadline,
    "Preparing the browser",
    Promise.all([cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*" }] }), cdp.send("Target.setDiscoverTargets", { discover: true })]),
  );
  return watch;
}
