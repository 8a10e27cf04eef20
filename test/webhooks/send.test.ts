import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { SEND_TIMEOUT_MS } from "../../src/webhooks/backoff";
import { dohResolver, memoResolver } from "../../src/net/dns";
import { USER_AGENT, sendAttempt, type SendDeps } from "../../src/webhooks/send";
import { generateSecret } from "../../src/webhooks/signing";

// One attempt, with fetch, DNS and the timeout injected: what is sent, and
// how each kind of answer is judged.

const secret = generateSecret();
const request = { url: "https://hooks.example.com/in", secrets: [secret], event: "invoice.paid", eventId: "evt-1", body: '{"event":"invoice.paid"}' };

function deps(fetchImpl: SendDeps["fetch"], overrides: Partial<SendDeps> = {}): SendDeps {
  return {
    fetch: fetchImpl,
    resolve: async () => ["93.184.216.34"],
    policy: { allowInsecure: false, allowLoopback: false },
    timeoutMs: SEND_TIMEOUT_MS,
    ...overrides,
  };
}

describe("sendAttempt", () => {
  it("POSTs the exact body with the Standard Webhooks headers, and a 2xx succeeds", async () => {
    let seen: Request | undefined;
    const outcome = await sendAttempt(
      request,
      deps(async (input, init) => {
        seen = new Request(input, init);
        return new Response(null, { status: 204 });
      }),
    );
    expect(outcome).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(seen!.method).toBe("POST");
    expect(seen!.headers.get("Webhook-Id")).toBe("evt-1");
    expect(seen!.headers.get("Webhook-Event")).toBe("invoice.paid");
    expect(seen!.headers.get("User-Agent")).toBe(USER_AGENT);
    const body = await seen!.text();
    expect(body).toBe(request.body);
    const headers = Object.fromEntries(seen!.headers);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ event: "invoice.paid" });
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
  });

  it("non-2xx answers fail with their status; redirects are refused, not followed", async () => {
    for (const status of [400, 404, 500, 503]) {
      const o = await sendAttempt(
        request,
        deps(async () => new Response("no", { status })),
      );
      expect(o).toMatchObject({ ok: false, statusCode: status, error: `HTTP ${status}` });
    }
    let calls = 0;
    const o = await sendAttempt(
      request,
      deps(async (_input, init) => {
        calls++;
        expect(init.redirect).toBe("manual");
        return new Response(null, { status: 302, headers: { Location: "http://169.254.169.254/" } });
      }),
    );
    expect(o).toMatchObject({ ok: false, statusCode: 302 });
    expect(o.error).toMatch(/redirect refused/);
    expect(calls).toBe(1);
  });

  it("a receiver that never answers is abandoned at the timeout", async () => {
    const hang: SendDeps["fetch"] = (_input, init) => new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    const started = Date.now();
    const o = await sendAttempt(request, deps(hang, { timeoutMs: 50 }));
    expect(o).toMatchObject({ ok: false, statusCode: null });
    expect(o.error).toMatch(/timeout/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a network error is a failed attempt, not a crash", async () => {
    const o = await sendAttempt(
      request,
      deps(async () => {
        throw new TypeError("connection reset");
      }),
    );
    expect(o).toMatchObject({ ok: false, statusCode: null, error: "network error: connection reset" });
  });

  it("re-checks the target before sending: a name now resolving privately is refused and nothing is sent", async () => {
    const fetchSpy = vi.fn(async () => new Response("ok"));
    const o = await sendAttempt(request, deps(fetchSpy, { resolve: async () => ["10.0.0.5"] }));
    expect(o.ok).toBe(false);
    expect(o.error).toMatch(/^refused: .*private/);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("signs with every secret given (rotation window): both verify", async () => {
    const previous = generateSecret();
    let headers: Record<string, string> = {};
    await sendAttempt(
      { ...request, secrets: [secret, previous] },
      deps(async (input, init) => {
        headers = Object.fromEntries(new Request(input, init).headers);
        return new Response("ok");
      }),
    );
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => new Webhook(secret).verify(request.body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(request.body, headers)).not.toThrow();
  });
});

describe("DNS-over-HTTPS resolver", () => {
  it("asks for A and AAAA and keeps only addresses (CNAME records dropped)", async () => {
    const asked: string[] = [];
    const resolve = dohResolver(async (url) => {
      const u = new URL(url);
      asked.push(`${u.searchParams.get("name")}/${u.searchParams.get("type")}`);
      const aaaa = u.searchParams.get("type") === "AAAA";
      return Response.json({
        Status: 0,
        Answer: [{ type: 5, data: "target.example.net." }, aaaa ? { type: 28, data: "2606:4700::6810:84e5" } : { type: 1, data: "104.16.132.229" }],
      });
    });
    expect(await resolve("hooks.example.com")).toEqual(["104.16.132.229", "2606:4700::6810:84e5"]);
    expect(asked.sort()).toEqual(["hooks.example.com/A", "hooks.example.com/AAAA"]);
  });

  it("NXDOMAIN is no addresses; SERVFAIL is an error", async () => {
    expect(await dohResolver(async () => Response.json({ Status: 3 }))("nx.example.com")).toEqual([]);
    await expect(dohResolver(async () => Response.json({ Status: 2 }))("bad.example.com")).rejects.toThrow(/status 2/);
  });

  it("the per-run memo asks once per host", async () => {
    const inner = vi.fn(async () => ["93.184.216.34"]);
    const resolve = memoResolver(inner);
    await Promise.all([resolve("a.example.com"), resolve("a.example.com"), resolve("b.example.com")]);
    expect(inner).toHaveBeenCalledTimes(2);
  });
});
