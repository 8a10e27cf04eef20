import type { ErrorCode, HTTPRequest } from "@cloudflare/puppeteer";
import { readAtMost } from "../../runtime/bytes";
import { Deadline, bounded } from "./deadline";

// A request the URL policy approved is fetched by the Worker and the answer
// handed to the browser (Fetch.fulfillRequest), instead of letting Chromium
// fetch it. Why: the policy resolves the name (DNS-over-HTTPS) and Chromium
// would resolve it again, so a name that answers a public address to us and a
// private one to Chromium a moment later (DNS rebinding) would get past the
// check. The Worker's fetch runs on Cloudflare's network, which does not
// reach private or loopback addresses (locally, miniflare only reaches the
// page server because BROWSER_DEV_ALLOWED_ORIGINS names its exact origin).
// Redirects are answered to the browser as they are (redirect: "manual"), so
// each hop comes back as a new request and passes the policy again.

/** Bytes the page may pull in, shared by every response of one render. */
export interface ByteBudget {
  readonly max: number;
  used: number;
  exceeded: boolean;
}

/** Chromium never answers Network.getRequestPostData for an empty form body (observed): wait this long, then send none. */
const POST_DATA_WAIT_MS = 1_000;

// Hop-by-hop headers and what the Worker's fetch handles itself (compression,
// framing) are not passed on either way. Alt-Svc would invite Chromium to
// open QUIC connections, Link may carry preconnect hints (connections the
// guard never sees) and Speculation-Rules prefetches outside interception.
const NOT_FORWARDED = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding", "te", "trailer", "upgrade"]);
const NOT_SENT = new Set([...NOT_FORWARDED, "accept-encoding", "proxy-authorization", "proxy-connection"]);
const NOT_RETURNED = new Set([...NOT_FORWARDED, "content-encoding", "proxy-authenticate", "alt-svc", "link", "speculation-rules", "set-cookie"]);

/**
 * Fetches `req` and answers the browser; a failure aborts it with the
 * nearest network error, past the budget it is aborted and `budget.exceeded`
 * set. Never throws: the request is always resolved.
 */
export async function respondThroughFetch(req: HTTPRequest, budget: ByteBudget, signal: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await fetch(req.url(), await requestInit(req, signal));
  } catch (err) {
    return req.abort(errorCode(err, signal, "connecting")).catch(() => undefined);
  }
  let body: Uint8Array | null;
  try {
    body = await readWithin(res, budget);
  } catch (err) {
    return req.abort(errorCode(err, signal, "reading")).catch(() => undefined);
  }
  if (body === null) return req.abort("blockedbyclient").catch(() => undefined);
  const contentType = res.headers.get("content-type") ?? "";
  return req.respond({ status: res.status, headers: responseHeaders(res.headers), contentType, body }).catch(() => undefined);
}

async function requestInit(req: HTTPRequest, signal: AbortSignal): Promise<RequestInit> {
  const headers = new Headers();
  // The browser's own headers, Cookie included: the cookies of this render's browser context, so a page that sets one still sends it.
  for (const [name, value] of Object.entries(req.headers())) if (!NOT_SENT.has(name.toLowerCase())) headers.set(name, value);
  const method = req.method();
  // CDP hands request bodies over as text; a page posting binary data sends it as UTF-8 (printing a document rarely posts at all).
  const body = method === "GET" || method === "HEAD" || !req.hasPostData() ? undefined : (req.postData() ?? (await largePostData(req)));
  // no-store: Cloudflare's cache must not answer one tenant's request with a response another tenant's cookies produced.
  return { method, headers, body, redirect: "manual", signal, cache: "no-store" };
}

/** A body too large for Chromium to inline in the request event, asked for separately. */
async function largePostData(req: HTTPRequest): Promise<string | undefined> {
  return bounded(new Deadline(POST_DATA_WAIT_MS), "Reading the request body", req.fetchPostData()).catch(() => undefined);
}

function responseHeaders(from: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of from) if (!NOT_RETURNED.has(name)) out[name] = value;
  // Kept so cookies work within the render's own browser context (which is discarded after it).
  const cookies = from.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

/** The body, or null once the render's byte budget would be exceeded (reading stops there, so memory stays bounded too). */
async function readWithin(res: Response, budget: ByteBudget): Promise<Uint8Array | null> {
  // The budget is the render's: requests read side by side count against it chunk by chunk.
  const body = await readAtMost(res.body, Number.POSITIVE_INFINITY, (bytes) => {
    budget.used += bytes;
    return budget.used <= budget.max;
  });
  if (body === null) budget.exceeded = true;
  return body;
}

/**
 * The Chromium network error closest to why the Worker's fetch failed, so
 * page_load_failed names it. workerd says "Network connection lost." both
 * when nothing listens and when a connection drops: before any answer it
 * means the former.
 */
function errorCode(err: unknown, signal: AbortSignal, phase: "connecting" | "reading"): ErrorCode {
  if (signal.aborted) return "timedout";
  const message = err instanceof Error ? err.message : String(err);
  if (/refused/i.test(message)) return "connectionrefused";
  if (/timed? ?out/i.test(message)) return "timedout";
  if (/resolve|DNS|not known|ENOTFOUND/i.test(message)) return "namenotresolved";
  if (/reset|connection lost|closed/i.test(message)) return phase === "connecting" ? "connectionrefused" : "connectionreset";
  return "failed";
}
