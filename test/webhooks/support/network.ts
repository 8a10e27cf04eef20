import { vi } from "vitest";
import { Webhook } from "standardwebhooks";

// The outside world of webhook tests. The vitest pool runs the Worker, its
// queue consumer and its Durable Objects in the test's isolate, so replacing
// globalThis.fetch reaches every sender. Receivers are routed by origin;
// DNS-over-HTTPS queries are answered from a table; anything else fails like
// an unreachable network (there is none here).

export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What a receiver does with its n-th request (1-based): a status, or hang until the sender gives up. */
export type Answer = number | "hang";
export type Script = (n: number) => Answer;

export class Receiver {
  readonly requests: Received[] = [];
  constructor(
    readonly url: string,
    public script: Script,
  ) {}

  /** Every request verified the way a subscriber would, with the standardwebhooks package. */
  verifiedWith(secret: string): { event: string; event_id: string; timestamp: number; data: Record<string, unknown> }[] {
    const wh = new Webhook(secret);
    return this.requests.map((r) => wh.verify(r.body, r.headers) as { event: string; event_id: string; timestamp: number; data: Record<string, unknown> });
  }
}

export const always =
  (answer: Answer): Script =>
  () =>
    answer;
/** Fails with `status` for the first `failures` requests, then answers 200. */
export const recoversAfter =
  (failures: number, status: Answer = 500): Script =>
  (n) =>
    n <= failures ? status : 200;

const receivers = new Map<string, Receiver>();
const dns = new Map<string, string[]>();
let nextPort = 20_000 + Math.floor(Math.random() * 20_000);

/** A receiver on a fresh loopback origin (allowed by ALLOW_PRIVATE_WEBHOOK_TARGETS in tests). */
export function receiver(script: Script = always(200), opts: { host?: string; scheme?: string } = {}): Receiver {
  const origin = opts.host ? `${opts.scheme ?? "https"}://${opts.host}` : `http://127.0.0.1:${nextPort++}`;
  const r = new Receiver(`${origin}/hook`, script);
  receivers.set(new URL(r.url).origin, r);
  return r;
}

/** What DNS-over-HTTPS answers for `host` (A and AAAA both taken from `addresses`). */
export function setDns(host: string, addresses: string[]): void {
  dns.set(host, addresses);
}

function dohAnswer(url: URL): Response {
  const name = url.searchParams.get("name") ?? "";
  const type = url.searchParams.get("type") === "AAAA" ? 28 : 1;
  const known = dns.get(name);
  if (!known) return Response.json({ Status: 3, Answer: [] }, { headers: { "Content-Type": "application/dns-json" } });
  const answers = known.filter((a) => (type === 28) === a.includes(":")).map((data) => ({ name, type, TTL: 60, data }));
  return Response.json({ Status: 0, Answer: answers }, { headers: { "Content-Type": "application/dns-json" } });
}

async function handle(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init);
  const url = new URL(req.url);
  if (url.hostname === "cloudflare-dns.com") return dohAnswer(url);
  const r = receivers.get(url.origin);
  if (!r) throw new TypeError(`network unreachable in tests: ${req.url}`);
  const body = await req.text();
  r.requests.push({ url: req.url, headers: Object.fromEntries(req.headers), body, at: Date.now() });
  const answer = r.script(r.requests.length);
  if (answer === "hang") {
    // Like a receiver that never answers: only the sender's abort ends it.
    return new Promise<Response>((_, reject) => {
      const signal = init?.signal ?? req.signal;
      signal?.addEventListener("abort", () => reject(signal.reason ?? new DOMException("aborted", "AbortError")));
    });
  }
  const redirect = answer >= 300 && answer < 400;
  return new Response(redirect || answer === 204 ? null : `answer ${answer}`, {
    status: answer,
    headers: redirect ? { Location: "http://169.254.169.254/latest/meta-data/" } : {},
  });
}

let installed = false;
/** Replaces fetch for this test file (each file runs in its own isolate). */
export function installNetwork(): void {
  if (installed) return;
  installed = true;
  vi.spyOn(globalThis, "fetch").mockImplementation(handle);
}

/** Polls `check` until it returns a value, failing after `timeoutMs` (the queue batches every second). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
