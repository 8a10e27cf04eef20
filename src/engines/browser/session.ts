import puppeteer, { type Browser } from "@cloudflare/puppeteer";
import { browserUnavailable } from "./errors";
import { ACQUIRE_WAIT_MS, KEEP_ALIVE_MS } from "./limits";

// Browser Rendering allows few browsers per account (paid: 120 concurrent, 1
// new per second; free: 3) and starting one costs ~0.5 s, so a call first
// takes over an idle browser another call left running (keep_alive), and
// launches only when none is free. A Worker cannot hold a browser connection
// across requests, so each call disconnects (the browser lives on) instead of
// closing. At the limit the call waits up to ACQUIRE_WAIT_MS, then answers 503
// with Retry-After.

const RETRY_STEP_MS = 500;
const REMEMBERED = 8;

// Browsers this isolate released, newest last. sessions() is the account-wide
// truth, but miniflare's emulation never clears a session's connectionId after
// a disconnect, so locally every browser would look busy and each call would
// launch another. Trying our own released ones as well costs at most a
// failed connect when another caller took one meanwhile.
const released: string[] = [];

async function connectIdle(binding: Fetcher): Promise<Browser | null> {
  const listed = (await puppeteer.sessions(binding)).filter((s) => !s.connectionId).map((s) => s.sessionId);
  // Spread concurrent callers over the idle browsers rather than all racing for the first.
  listed.sort(() => Math.random() - 0.5);
  const candidates = [...new Set([...released.slice().reverse(), ...listed])];
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

async function acquire(binding: Fetcher): Promise<Browser> {
  const deadline = Date.now() + ACQUIRE_WAIT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return (await connectIdle(binding)) ?? (await puppeteer.launch(binding, { keep_alive: KEEP_ALIVE_MS }));
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, RETRY_STEP_MS));
    }
  }
  console.error("browser acquisition failed", lastError);
  throw browserUnavailable("No browser could be had in time (the account's concurrent browser limit is reached).", 5);
}

/** Runs `work` on a browser of the pool; the browser stays running for the next call. */
export async function withBrowser<T>(binding: Fetcher | undefined, work: (browser: Browser) => Promise<T>): Promise<T> {
  if (!binding) throw browserUnavailable("Browser Rendering is not configured (no BROWSER binding).", 60);
  const browser = await acquire(binding);
  try {
    return await work(browser);
  } finally {
    await browser.disconnect().catch(() => undefined);
    remember(browser.sessionId());
  }
}
