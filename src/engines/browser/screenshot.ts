import type { Env } from "../../env";
import { isTimeout, pageTimeout } from "./errors";
import { SCROLL_HEIGHT } from "./in-page";
import { deadlineFor, loadPage } from "./load";
import { MAX_SCREENSHOT_HEIGHT } from "./limits";
import { withBrowser } from "./session";
import type { LoadOptions, RenderSource } from "./types";

export interface ScreenshotOptions {
  /** The whole scrollable page rather than the viewport (cut at MAX_SCREENSHOT_HEIGHT px). */
  fullPage?: boolean;
}

/** A PNG of the loaded page: the viewport, or the full page. */
export async function screenshotPng(env: Env, source: RenderSource, load: LoadOptions, shot: ScreenshotOptions = {}): Promise<Uint8Array> {
  const deadline = deadlineFor(env);
  return withBrowser(env.BROWSER, async (browser) => {
    const page = await loadPage(env, browser, source, load, deadline);
    try {
      const viewport = page.viewport() ?? { width: 1280, height: 800 };
      let height = viewport.height;
      if (shot.fullPage) {
        const scroll = Number(await page.evaluate(SCROLL_HEIGHT));
        height = Math.min(Math.max(scroll, viewport.height), MAX_SCREENSHOT_HEIGHT);
      }
      const png = await page.screenshot({ type: "png", clip: { x: 0, y: 0, width: viewport.width, height }, captureBeyondViewport: true });
      return new Uint8Array(png);
    } catch (err) {
      if (isTimeout(err)) throw pageTimeout(deadline.ms, "Capturing the page");
      throw err;
    } finally {
      await page.close().catch(() => undefined);
    }
  });
}
