import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { configureMemory, DEFAULT_MEMORY_LIMITS } from "../../src/runtime/memory";
import { accountWithKey, balanceOf } from "../support/accounts";
import { BASE, freshIp, withKey } from "../support/http";
import { runtimeReport } from "../support/runtime";

// A request body is memory like any engine's: it is admitted against the
// isolate's budget before it is read, by its declared length or, chunked,
// as it arrives, and cut off at the request limit.

const worker = exports as unknown as { default: { fetch(req: Request): Promise<Response> } };
const MiB = 1024 * 1024;

afterEach(() => void configureMemory(DEFAULT_MEMORY_LIMITS));

/** A multipart body that sends `chunks` pieces of 1 MiB and then either ends or stays open for ever. */
function multipartStream(chunks: number, end: boolean): { stream: ReadableStream<Uint8Array>; cancel: () => void } {
  const boundary = "admission";
  const enc = new TextEncoder();
  const piece = new Uint8Array(MiB).fill(0x41);
  let sent = 0;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`));
    },
    pull(c) {
      if (sent < chunks) {
        sent++;
        c.enqueue(piece);
      } else if (end) {
        c.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
        c.close();
      }
      // Not ending: no more data, and the stream stays open.
    },
  });
  // Ended by closing, not by an error: an errored request body is rejected
  // again inside the runtime's pump, where no test can catch it.
  const cancel = () => {
    try {
      controller?.close();
    } catch {
      // Already closed or cancelled by the reader.
    }
  };
  return { stream, cancel };
}

function post(key: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const init = {
    method: "POST",
    body,
    duplex: "half",
    headers: { ...withKey(key), "CF-Connecting-IP": freshIp(), "Content-Type": "multipart/form-data; boundary=admission", ...headers },
    signal,
  } as RequestInit;
  return worker.default.fetch(new Request(`${BASE}/api/v1/image/resize`, init));
}

describe("request bodies are admitted before they are read", () => {
  it("a chunked body past 100 MiB is cut off with 413, nothing charged", async () => {
    const { key, token } = await accountWithKey({ credits: 100 });
    const before = await balanceOf(token);
    const res = await post(key, multipartStream(101, true).stream);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe("payload_too_large");
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(await balanceOf(token)).toBe(before);
  });

  it("a body is reserved before it is read: with no room, the call is refused while its body is still arriving", async () => {
    const { key } = await accountWithKey({ credits: 100 });
    configureMemory({ budgetBytes: 4 * MiB, queueLength: 0 });
    // A first call whose chunked body never ends holds its reservation.
    const holder = multipartStream(1, false);
    const controller = new AbortController();
    const held = post(key, holder.stream, {}, controller.signal).catch((err: unknown) => err);
    const end = Date.now() + 5_000;
    while ((await runtimeReport<{ running: number }>()).running === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect((await runtimeReport<{ running: number; reserved: number }>()).reserved).toBeGreaterThan(0);

    // The second declares 8 MiB and never sends it all: it is answered at once.
    const second = multipartStream(1, false);
    const res = await post(key, second.stream, { "Content-Length": String(8 * MiB) });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe("memory_busy");
    second.cancel();

    controller.abort();
    holder.cancel();
    await held;
    const after = await runtimeReport<{ running: number; reserved: number }>();
    expect(after.running).toBe(0);
    expect(after.reserved).toBe(0);
  });
});
