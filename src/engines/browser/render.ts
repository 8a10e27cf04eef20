import type { Page } from "@cloudflare/puppeteer";
import type { Env } from "../../env";
import { type Deadline, deadlineFor, StepTimedOut, stepTimeout } from "./deadline";
import { checkWatch, loadPage } from "./load";
import { withRenderContext } from "./render-context";
import { withBrowser } from "./session";
import type { LoadOptions, RenderSource } from "./types";

/**
 * One render: a pooled browser, a browser context of its own, the source
 * loaded with every option, then `work` (printing, capturing) on the page.
 * Whatever happens, the context is closed and the render's fetches stopped;
 * a step that ran out of time answers 422 page_load_timeout.
 */
export async function renderPage<T>(env: Env, source: RenderSource, load: LoadOptions, work: (page: Page, deadline: Deadline) => Promise<T>): Promise<T> {
  // Set once a browser is in hand: getting one has a bound of its own (ACQUIRE_WAIT_MS, then 503), and the page's budget is the page's.
  let deadline: Deadline | undefined;
  try {
    return await withBrowser(env.BROWSER, (browser, lease) => {
      const budget = deadlineFor(env);
      deadline = budget;
      return withRenderContext(browser, lease, budget, async (page, guard) => {
        const ended = new AbortController();
        try {
          const watch = await loadPage(env, page, source, load, budget, ended.signal);
          const out = await work(page, budget);
          // The page may have navigated somewhere refused, or pulled in too much, while it was being printed.
          checkWatch(watch);
          return out;
        } finally {
          ended.abort();
          // Each was failed, so nothing reached a network; a request the page's guard never saw is worth knowing about.
          if (guard.escaped.length > 0) console.warn("browser-level guard failed requests", guard.popups, guard.escaped.slice(0, 5));
        }
      });
    });
  } catch (err) {
    if (err instanceof StepTimedOut && deadline) throw stepTimeout(deadline, err);
    throw err;
  }
}
