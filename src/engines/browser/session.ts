import puppeteer, { type Browser } from "@cloudflare/puppeteer";
import { succeededWithin } from "./deadline";
import { browserUnavailable } from "./errors";
import { ACQUIRE_WAIT_MS, KEEP_ALIVE_MS, LAUNCH_WAIT_MS } from "./limits";

// Browser Rendering allows few browsers per account (paid: 120 concurrent, 1
// new per second; free: 3) and starting one costs ~0.5 s, so a call first
// takes over an idle browser another call left running (keep_alive), and
// launches only when none is free. A Worker cannot hold a browser connection
// across requests, so each call disconnects (the browser lives on) instead of
// closing. At the limit the call waits up to ACQUIRE_WAIT_MS, then answers 503
// with Retry-After. A browser goes back to the pool only when the render says
// it is clean (its browser context was closed in time); otherwise it is
// closed, so no other tenant's render connects to a browser that still holds
// a spinning page or a context we could not dispose.

const RETRY_STEP_MS = 500;
const REMEMBERED = 8;
/** How long a spoiled browser's close may take before we just disconnect. */
const CLOSE_WAIT_MS = 2_000;

// Browsers this isolate released, newest last. sessions() is the account-wide
// truth, but miniflare's emulation never clears a session's connectionId after
// a disconnect, so locally every browser would look busy and each call would
// launch another. Trying our own released ones as well costs at most a
// failed connect when another caller took one meanwhile.
const released: string[] = [];
// Browsers this isolate could not close after a stuck render: never taken again from here.
const avoided: string[] = [];

function avoid(sessionId: string): void {
  avoided.push(sessionId);
  if (avoided.length > REMEMBERED) avoided.shift();
}

async function connectIdle(binding: Fetcher): Promise<Browser | null> {
  const listed = (await puppeteer.sessions(binding)).filter((s) => !s.connectionId).map((s) => s.sessionId);
  // Spread concurrent callers over the idle browsers rather than all racing for the first.
  listed.sort(() => Math.random() - 0.5);
  const candidates = [...new Set([...released.slice().reverse(), ...listed])].filter((id) => !avoided.includes(id));
  for (const sessionId of candidates) {
    forget(sessionId);
    try {
      return await puppeteer.connect(binding, sessionId);
    } catch {
      // Taken by another call between listing and connecting, or closed: try the next.
    }
  }
  return null;
}

function forget(sessionId: string): void {
  const at = released.indexOf(sessionId);
  if (at >= 0) released.splice(at, 1);
}

function remember(sessionId: string): void {
  released.push(sessionId);
  if (released.length > REMEMBERED) released.shift();
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A new browser: its session acquired, then connected. A session just
 * acquired may not take a connection yet (the browser is still starting);
 * connecting again to the same one is cheaper than launching another each
 * time, and one that never answers in time is offered to later calls rather
 * than forgotten.
 */
async function launch(binding: Fetcher): Promise<Browser> {
  const { sessionId } = await puppeteer.acquire(binding, { keep_alive: KEEP_ALIVE_MS });
  const deadline = Date.now() + LAUNCH_WAIT_MS;
  for (;;) {
    try {
      return await puppeteer.connect(binding, sessionId);
    } catch (err) {
      if (Date.now() + RETRY_STEP_MS >= deadline) {
        remember(sessionId);
        throw err;
      }
    }
    await pause(RETRY_STEP_MS);
  }
}

async function acquire(binding: Fetcher): Promise<Browser> {
  const deadline = Date.now() + ACQUIRE_WAIT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return (await connectIdle(binding)) ?? (await launch(binding));
    } catch (err) {
      lastError = err;
      await pause(RETRY_STEP_MS);
    }
  }
  console.error("browser acquisition failed", lastError);
  throw browserUnavailable("No browser could be had in time (the account's concurrent browser limit is reached).", 5);
}

/** What a render tells the pool about the browser it used. */
export interface BrowserLease {
  /** The browser must not serve another render: it is closed instead of returned to the pool. */
  spoil(): void;
}

/** Runs `work` on a browser of the pool; a clean browser stays running for the next call. */
export async function withBrowser<T>(binding: Fetcher | undefined, work: (browser: Browser, lease: BrowserLease) => Promise<T>): Promise<T> {
  if (!binding) throw browserUnavailable("Browser Rendering is not configured (no BROWSER binding).", 60);
  const browser = await acquire(binding);
  let spoiled = false;
  try {
    return await work(browser, { spoil: () => (spoiled = true) });
  } finally {
    await release(browser, spoiled ? "close" : "keep");
  }
}

async function release(browser: Browser, how: "keep" | "close"): Promise<void> {
  const sessionId = browser.sessionId();
  if (how === "close" && (await succeededWithin(CLOSE_WAIT_MS, browser.close()))) return;
  // Closing timed out (or was not asked for): the browser lives on; only a kept one is offered to the next call.
  await succeededWithin(CLOSE_WAIT_MS, browser.disconnect());
  if (how === "keep") remember(sessionId);
  else avoid(sessionId);
}
