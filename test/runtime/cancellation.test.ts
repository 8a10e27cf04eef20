import { env, exports } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import type { AccountMeter } from "../../src/billing/meter-do";
import { configureMemory, DEFAULT_MEMORY_LIMITS } from "../../src/runtime/memory";
import { writePng } from "../../src/engines/images/codecs/png-writer";
import { accountWithKey, balanceOf } from "../support/accounts";
import { describeWithBrowser, pageServer } from "../support/browser";
import { BASE, file, form, freshIp, postForm, withKey } from "../support/http";
import { photo } from "../support/images/fixtures";
import { runtimeReport } from "../support/runtime";

// A client may vanish at any await. In production the Worker's code after
// that await may never run again, so what a call holds (its memory
// reservation, its debit) is given back through its request's signal, and a
// debit whose call never settles is refunded by the meter's alarm.

interface Runtime {
  running: number;
  reserved: number;
  waiting: number;
  admitted: number;
  abandoned: number;
}

const worker = exports as unknown as { default: { fetch(req: Request): Promise<Response> } };
const MiB = 1024 * 1024;

afterEach(() => void configureMemory(DEFAULT_MEMORY_LIMITS));

/**
 * Starts a call the test can cut off. The tests' own isolate runs the
 * Worker, so a call that computes without awaiting would keep the runtime
 * report from being read until it ended: the calls cut off here await I/O
 * (a page that never answers, or memory that is not free).
 */
function callThatLeaves(path: string, body: FormData, key: string) {
  const controller = new AbortController();
  const req = new Request(`${BASE}${path}`, { method: "POST", body, headers: { ...withKey(key), "CF-Connecting-IP": freshIp() }, signal: controller.signal });
  const response = worker.default.fetch(req).catch((err: unknown) => err);
  return { abort: () => controller.abort(), response };
}

const hangingRender = (key: string) => callThatLeaves("/api/v1/html/to-pdf", form({ url: `${pageServer()}/hang` }), key);
const smallResize = (key: string) =>
  postForm("/api/v1/image/resize", { file: file(writePng(photo(64, 48)), "s.png", "image/png"), width: "32", target_format: "png" }, withKey(key));

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  let last = await read();
  while (!ok(last)) {
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(last)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  return last;
}

const runtime = () => runtimeReport<Runtime>();

describeWithBrowser("a client that disconnects mid-call", () => {
  it("leaves nothing running or reserved within 5 s, gets its credits back, and the next call runs at once", async () => {
    const { key, token } = await accountWithKey({ credits: 100 });
    const before = await balanceOf(token);
    const call = hangingRender(key);
    await until(
      "the debit",
      () => balanceOf(token),
      (b) => b < before,
    );
    expect((await runtime()).running).toBeGreaterThanOrEqual(1);
    call.abort();
    await call.response;

    await until("memory given back", runtime, (r) => r.running === 0 && r.reserved === 0);
    expect(
      await until(
        "credits back",
        () => balanceOf(token),
        (b) => b === before,
      ),
    ).toBe(before);

    const started = Date.now();
    expect((await smallResize(key)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("while waiting for memory is never admitted, and nothing is charged", async () => {
    const { key, token } = await accountWithKey({ credits: 100 });
    const before = await balanceOf(token);
    // Room for one call at a time: the second waits behind the first.
    configureMemory({ budgetBytes: 1 * MiB, queueLength: 4, queueWaitMs: 30_000 });
    const first = hangingRender(key);
    await until("the first call to run", runtime, (r) => r.running === 1);
    const admitted = (await runtime()).admitted;
    const second = callThatLeaves("/api/v1/image/resize", form({ file: file(writePng(photo(64, 48)), "s.png", "image/png"), width: "32" }), key);
    await until("the second call to wait", runtime, (r) => r.waiting === 1);
    second.abort();
    await second.response;
    await until("the waiter to be dropped", runtime, (r) => r.waiting === 0);

    // The first ends on its own (the page never answers: 422, refunded).
    const firstResponse = (await first.response) as Response;
    expect(firstResponse.status).toBe(422);
    const r = await until("everything to end", runtime, (v) => v.running === 0);
    expect(r.reserved).toBe(0);
    expect(r.admitted).toBe(admitted);
    expect(await balanceOf(token)).toBe(before);
  });
});

describe("the meter settles calls that never answered", () => {
  const meter = (accountId: string) => env.METER.get(env.METER.idFromName(accountId));

  it("refunds an open charge once its call can no longer be running, and mirrors it to the ledger", async () => {
    const accountId = `acct-${crypto.randomUUID()}`;
    const stub = meter(accountId);
    await stub.grant(50);
    const requestId = crypto.randomUUID();
    const charged = await stub.charge({
      requestId,
      credits: 20,
      keyId: null,
      keyLimit: null,
      settleBy: Date.now() - 1,
      mirror: { accountId, operation: "image.resize", userId: null },
    });
    expect(charged).toMatchObject({ ok: true, balance: 30 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await stub.state()).balance).toBe(50);
    // The call's code, should it run after all, learns that it was given up on.
    expect(await stub.settle(requestId)).toEqual({ settled: false });
    const ledger = await env.DB.prepare("SELECT kind, credits FROM credit_ledger WHERE request_id = ?").bind(requestId).all();
    expect(ledger.results).toEqual([{ kind: "refund", credits: 20 }]);
  });

  it("keeps a charge its call settled in time, and leaves no alarm behind", async () => {
    const accountId = `acct-${crypto.randomUUID()}`;
    const stub = meter(accountId);
    await stub.grant(50);
    const requestId = crypto.randomUUID();
    await stub.charge({
      requestId,
      credits: 20,
      keyId: null,
      keyLimit: null,
      settleBy: Date.now() + 60_000,
      mirror: { accountId, operation: "x", userId: null },
    });
    expect(await stub.settle(requestId)).toEqual({ settled: true });
    const alarm = await runInDurableObject(stub, (_obj: AccountMeter, state) => state.storage.getAlarm());
    expect(alarm).toBeNull();
    expect((await stub.state()).balance).toBe(30);
  });

  it("refuses a debit that arrives after the refund its call's abort listener sent first", async () => {
    const accountId = `acct-${crypto.randomUUID()}`;
    const stub = meter(accountId);
    await stub.grant(50);
    const requestId = crypto.randomUUID();
    expect(await stub.refund(requestId)).toMatchObject({ refunded: false });
    await stub.charge({
      requestId,
      credits: 20,
      keyId: null,
      keyLimit: null,
      settleBy: Date.now() + 60_000,
      mirror: { accountId, operation: "x", userId: null },
    });
    expect((await stub.state()).balance).toBe(50);
    expect(await stub.settle(requestId)).toEqual({ settled: false });
  });
});
