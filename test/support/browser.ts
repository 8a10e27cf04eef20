import { env } from "cloudflare:workers";
import { describe, it } from "vitest";

// Browser Rendering in tests: miniflare launches the system Chromium through
// scripts/chrome-shim.mjs. Without Chromium these tests skip (vitest.config.ts
// prints one notice), except under REQUIRE_CHROMIUM=1 (.ci/run), where the
// run fails instead.

const bindings = env as unknown as { BROWSER_AVAILABLE?: string; PAGE_SERVER_ORIGIN?: string; DEAD_ORIGIN?: string };

export const hasBrowser = bindings.BROWSER_AVAILABLE === "true";
export const itWithBrowser = it.skipIf(!hasBrowser);
export const describeWithBrowser = describe.skipIf(!hasBrowser);

/** Origin of test/support/page-server.mjs, the one loopback origin the renderer may load in tests. */
export function pageServer(): string {
  if (!bindings.PAGE_SERVER_ORIGIN) throw new Error("PAGE_SERVER_ORIGIN missing: see vitest.config.ts");
  return bindings.PAGE_SERVER_ORIGIN;
}

/** Hits the page server counted for /beacon/<token>. */
export async function beaconHits(token: string): Promise<number> {
  const res = await fetch(`${pageServer()}/hits/${token}`);
  return ((await res.json()) as { hits: number }).hits;
}

/** An allowed origin where nothing listens (connection refused). */
export function deadOrigin(): string {
  if (!bindings.DEAD_ORIGIN) throw new Error("DEAD_ORIGIN missing: see vitest.config.ts");
  return bindings.DEAD_ORIGIN;
}

/**
 * A loopback TCP+UDP listener of the page server for `token` (opened on first
 * use), on a port no rule of the renderer allows: `connections` counts every
 * connection and datagram that reached it, i.e. traffic that escaped the guard.
 */
export async function escapeListener(token: string): Promise<{ port: number; connections: number }> {
  const res = await fetch(`${pageServer()}/listener/${token}`);
  return (await res.json()) as { port: number; connections: number };
}

/** Header names of each request the page server answered on /headers/<token>, lower-cased. */
export async function seenHeaders(token: string): Promise<string[][]> {
  const res = await fetch(`${pageServer()}/seen/${token}`);
  return ((await res.json()) as { requests: string[][] }).requests;
}
