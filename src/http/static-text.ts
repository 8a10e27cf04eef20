import type { Context } from "hono";
import { defineRoute } from "./route";

// The pages this Worker serves itself (/docs, /console) and their script and
// style files: each HTML page under one strict policy (no inline script or
// style, requests to this origin only, never framed), everything nosniff.

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Answers `text` as `media`; an HTML page gets the policy, no referrer, and no caching (it names the current script). */
export function sendText(c: Context, media: string, text: string): Response {
  if (media === "text/html") {
    c.header("Content-Security-Policy", PAGE_CSP);
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
  }
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Content-Type", `${media}; charset=utf-8`);
  return c.body(text);
}

/** A public GET route that serves one fixed text file. */
export function staticTextRoute(id: string, path: string, tags: string[], summary: string, media: string, text: string, redirectsFrom?: string[]) {
  return defineRoute({
    id,
    method: "get",
    path,
    redirectsFrom,
    tags,
    summary,
    auth: "public",
    responses: { 200: { description: summary, media } },
    handler: (c) => sendText(c, media, text),
  });
}
