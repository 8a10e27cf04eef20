import type { Browser, BrowserContext, Page } from "@cloudflare/puppeteer";
import { type BrowserWatch, guardBrowser } from "./browser-guard";
import { bounded, type Deadline, StepTimedOut, succeededWithin } from "./deadline";
import type { BrowserLease } from "./session";

// Browsers are pooled across calls and tenants (session.ts), so each render
// gets a browser context of its own, Chromium's incognito-like profile:
// cookies, localStorage, IndexedDB, the HTTP cache and service workers live
// in it and are discarded when it is closed, whatever the render's outcome.
// A context that cannot be closed in time (a renderer that stopped
// answering) spoils the browser: it is closed rather than handed to the next
// render.

/** Clean-up runs after the deadline may have passed: its own short wait. */
const CLOSE_WAIT_MS = 2_000;

export async function withRenderContext<T>(
  browser: Browser,
  lease: BrowserLease,
  deadline: Deadline,
  work: (page: Page, guard: BrowserWatch) => Promise<T>,
): Promise<T> {
  let guard: BrowserWatch | undefined;
  let context: BrowserContext | undefined;
  try {
    guard = await guardBrowser(browser, deadline);
    context = await bounded(deadline, "Opening a browser context", browser.createBrowserContext());
    const page = await bounded(deadline, "Opening a page", context.newPage());
    return await work(page, guard);
  } catch (err) {
    // The browser did not even answer in time, or a context still being created would be left behind.
    if (err instanceof StepTimedOut && !context) lease.spoil();
    throw err;
  } finally {
    if (context && !(await succeededWithin(CLOSE_WAIT_MS, context.close()))) lease.spoil();
    if (guard) await succeededWithin(CLOSE_WAIT_MS, guard.detach());
  }
}
