import type { Env } from "../../env";
import { isTimeout, pageTimeout } from "./errors";
import { SCROLL_HEIGHT } from "./in-page";
import { MAX_SCREENSHOT_HEIGHT } from "./limits";
import { evaluateIn, onSettledPage } from "./page-steps";
import { renderPage } from "./render";
import type { LoadOptions, RenderSource } from "./types";

export interface ScreenshotOptions {
  /** The whole scrollable page rather than the viewport (cut at MAX_SCREENSHOT_HEIGHT px). */
  fullPage?: boolean;
}

/** A PNG of the loaded page: the viewport, or the full page. */
export async function screenshotPng(env: Env, source: RenderSource, load: LoadOptions, shot: ScreenshotOptions = {}): Promise<Uint8Array> {
  return renderPage(env, source, load, async (page, deadline) => {
    try {
      const viewport = page.viewport() ?? { width: 1280, height: 800 };
      let height = viewport.height;
      if (shot.fullPage) {
        const scroll = Number(await evaluateIn(page, deadline, "Measuring the page", SCROLL_HEIGHT));
        height = Math.min(Math.max(scroll, viewport.height), MAX_SCREENSHOT_HEIGHT);
      }
      const clip = { x: 0, y: 0, width: viewport.width, height };
      const png = await onSettledPage(page, deadline, "Capturing the page", () => page.screenshot({ type: "png", clip, captureBeyondViewport: true }));
      return new Uint8Array(png);
    } catch (err) {
      if (isTimeout(err)) throw pageTimeout(deadline.ms, "Capturing the page");
      throw err;
    }
  });
}
