import puppeteer, { type Browser } from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Deadline } from "../../../src/engines/browser/deadline";
import { withRenderContext } from "../../../src/engines/browser/render-context";
import { withBrowser } from "../../../src/engines/browser/session";
import { describeWithBrowser, itWithBrowser } from "../../support/browser";

// What happens to a browser after a render. A render whose browser context
// could not be closed in time (a renderer that stopped answering) must not
// hand that browser to the next tenant: it is closed instead of returned to
// the pool. Such a renderer cannot be produced on demand in Chromium (a
// spinning page's context still closes: stuck-pages.test.ts), so the
// context's side is driven with a stand-in browser whose close never answers.

const never = () => new Promise<never>(() => undefined);

/** A stand-in for puppeteer's Browser: a context whose close() never settles. */
function browserWithStuckContext(): { browser: Browser; closes: () => number } {
  let closes = 0;
  const cdp = { on: () => undefined, send: async () => ({}), detach: async () => undefined };
  const context = {
    newPage: async () => ({}),
    close: () => {
      closes++;
      return never();
    },
  };
  const browser = { target: () => ({ createCDPSession: async () => cdp }), createBrowserContext: async () => context };
  return { browser: browser as unknown as Browser, closes: () => closes };
}

describe("render context clean-up", () => {
  it("a context that does not close in time spoils the browser, and the render still ends promptly", async () => {
    const { browser, closes } = browserWithStuckContext();
    let spoiled = false;
    const started = Date.now();
    const err = await withRenderContext(browser, { spoil: () => (spoiled = true) }, new Deadline(5_000), async () => {
      throw new Error("the render failed");
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe("the render failed");
    expect(closes()).toBe(1);
    expect(spoiled).toBe(true);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("a browser that does not even open a context before the deadline is spoiled", async () => {
    const { browser } = browserWithStuckContext();
    (browser as unknown as { createBrowserContext: () => Promise<never> }).createBrowserContext = never;
    let spoiled = false;
    const err = await withRenderContext(browser, { spoil: () => (spoiled = true) }, new Deadline(300), async () => "never").catch((e: unknown) => e);
    expect((err as Error).name).toBe("StepTimedOut");
    expect(spoiled).toBe(true);
  });
});

describeWithBrowser("browser pool after a render", () => {
  itWithBrowser("a spoiled browser is closed; a clean one stays running for the next render", async () => {
    // Two renders at once, so each holds a browser of its own.
    let bothHeld: () => void = () => undefined;
    const held = new Promise<void>((r) => (bothHeld = r));
    const [clean, spoiled] = await Promise.all([
      withBrowser(env.BROWSER, async (browser) => {
        await held;
        return browser.sessionId();
      }),
      withBrowser(env.BROWSER, async (browser, lease) => {
        lease.spoil();
        bothHeld();
        return browser.sessionId();
      }),
    ]);
    expect(spoiled).not.toBe(clean);
    // miniflare notices a closed browser on its next status check (about a second).
    let running: string[] = [];
    for (let i = 0; i < 30; i++) {
      running = (await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId);
      if (!running.includes(spoiled)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(running).toContain(clean);
    expect(running).not.toContain(spoiled);
  });
});
