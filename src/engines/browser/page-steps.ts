import type { Page } from "@cloudflare/puppeteer";
import { bounded, type Deadline } from "./deadline";

// Steps run on a loaded page that may still navigate itself (a script
// assigning location, a meta refresh, a form submitted on load, a reload).
// An evaluate that meets a navigation fails with "Execution context was
// destroyed"; rather than a 500, the step waits until the page it lands on
// has loaded and runs again there. A page that never stops navigating runs
// into the deadline (page_load_timeout). Every step is bounded by the
// deadline (deadline.ts): a page spinning in a script answers nothing.
//
// A page that reloads itself every few milliseconds can let a step through
// in the gap between two documents, so which document a render shows would
// be chance. Once a page has loaded a second document, each step first waits
// until no document has loaded for QUIET_MS: a page that navigated once
// renders where it landed, one that never stops answers page_load_timeout.

const POLL_MS = 100;
const QUIET_MS = 300;

interface DocumentLoads {
  count: number;
  last: number;
}

const loadsOf = new WeakMap<Page, DocumentLoads>();

/** Counts the documents the page's main frame loads; called once, before the page's first navigation. */
export function watchDocumentLoads(page: Page): void {
  const loads: DocumentLoads = { count: 0, last: 0 };
  loadsOf.set(page, loads);
  page.on("load", () => {
    loads.count += 1;
    loads.last = Date.now();
  });
}

// Chromium's and puppeteer's words for "the document this ran in is gone"
// ("Printing failed" is what printToPDF says when the document is replaced
// while it prints; any other cause of it runs into the deadline, a 422).
const NAVIGATED =
  /Execution context was destroyed|Cannot find context with specified id|Execution context is not available|Inspected target navigated|detached Frame|Navigating frame was detached|Printing failed/i;

export const isNavigationError = (err: unknown): boolean => err instanceof Error && NAVIGATED.test(err.message);

/** `step` on the page, again on the next document if the page navigates meanwhile, within the deadline. */
export async function onSettledPage<T>(page: Page, deadline: Deadline, what: string, step: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await quiet(page, deadline, what);
      return await bounded(deadline, what, step());
    } catch (err) {
      if (!isNavigationError(err)) throw err;
      await loaded(page, deadline, what);
    }
  }
}

/** An expression evaluated in the page, as onSettledPage. */
export function evaluateIn(page: Page, deadline: Deadline, what: string, expression: string): Promise<unknown> {
  return onSettledPage(page, deadline, what, () => page.evaluate(expression));
}

/**
 * Until the main frame's document has loaded. Polled rather than awaited with
 * waitForNavigation, which would wait for a further navigation when the one
 * under way has already finished.
 */
async function loaded(page: Page, deadline: Deadline, what: string): Promise<void> {
  for (;;) {
    await bounded(deadline, what, new Promise((r) => setTimeout(r, POLL_MS)));
    try {
      if ((await bounded(deadline, what, page.evaluate("document.readyState"))) === "complete") return;
    } catch (err) {
      if (!isNavigationError(err)) throw err;
    }
  }
}

/** Returns at once for a page that loaded one document; otherwise once its latest document has loaded and stayed for QUIET_MS. */
async function quiet(page: Page, deadline: Deadline, what: string): Promise<void> {
  const loads = loadsOf.get(page);
  if (!loads || loads.count <= 1) return;
  for (;;) {
    const still = QUIET_MS - (Date.now() - loads.last);
    if (still > 0) await bounded(deadline, what, new Promise((r) => setTimeout(r, Math.min(still, POLL_MS))));
    else {
      await loaded(page, deadline, what);
      if (Date.now() - loads.last >= QUIET_MS) return;
    }
  }
}
