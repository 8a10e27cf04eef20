import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { heapReport, noteHeapUse } from "../../src/engines/heap";
import { trimCodecHeaps } from "../../src/engines/images/codecs/emscripten";
import { configureMemory, DEFAULT_MEMORY_LIMITS, withMemory } from "../../src/runtime/memory";
import { accountWithKey, balanceOf } from "../support/accounts";
import { file, postForm, postJson, withKey } from "../support/http";
import { encodeJpegFromRows } from "../../src/engines/images";
import { writePng } from "../../src/engines/images/codecs/png-writer";
import { photo } from "../support/images/fixtures";
import { plainPdf, scannedPdf } from "../support/pdf.mjs";
import { toBase64 } from "../../src/secrets/encoding";
import { runtimeReport } from "../support/runtime";

// Issue #10: calls are admitted against what the whole isolate holds. The
// Worker runs in this test's isolate, so the governor these tests configure
// is the one the HTTP calls go through.

interface Runtime {
  wasm_heaps: Record<string, number>;
  wasm_total: number;
  wasm_peak: number;
  wasm_peak_heaps: Record<string, number>;
  budget: number;
  reserved: number;
  largest_reservation: number;
  running: number;
  waiting: number;
  admitted: number;
  queued: number;
  refused: number;
  released_idle: number;
  mupdf: { released_idle: number; instances: number; image_roads: { mupdf: number; banded_jpeg: number } };
}

async function runtime(): Promise<Runtime> {
  return runtimeReport<Runtime>();
}

const MiB = 1024 * 1024;
let bigPng: Uint8Array;
let bigJpeg: Uint8Array;

// Inputs are written without growing this isolate's WASM heaps (the peak is
// the Worker's, and the test runs in its isolate): PNG by our JS writer, JPEG
// by the band writer, a band at a time.
async function bandedJpeg(width: number, height: number): Promise<Uint8Array> {
  const px = photo(width, height);
  const rows = (y0: number, y1: number) => ({ data: px.data.subarray(y0 * width * 4, y1 * width * 4), width, height: y1 - y0 });
  return encodeJpegFromRows(width, height, 90, rows);
}

beforeAll(async () => {
  // About 3 MP: slow enough (hundreds of ms) that concurrent calls overlap.
  bigPng = writePng(photo(2000, 1500));
  bigJpeg = await bandedJpeg(2000, 1500);
});

afterEach(() => void configureMemory(DEFAULT_MEMORY_LIMITS));

const resize = (key: string, bytes = bigPng) =>
  postForm("/api/v1/image/resize", { file: file(bytes, "big.png", "image/png"), width: "1900", target_format: "webp" }, withKey(key));

describe("the isolate's memory governor", () => {
  it("reports every heap, their total, the peak since start and the budget", async () => {
    const { key } = await accountWithKey({ credits: 100 });
    expect((await resize(key)).status).toBe(200);
    const r = await runtime();
    expect(r.budget).toBe(100 * MiB);
    expect(r.wasm_total).toBe(Object.values(r.wasm_heaps).reduce((a, b) => a + b, 0));
    expect(r.wasm_peak).toBeGreaterThanOrEqual(r.wasm_total);
    expect(r.wasm_peak).toBeGreaterThan(0);
    expect(r.running).toBe(0);
    expect(r.reserved).toBe(0);
  });

  it("queues a call that does not fit beside a running one, and answers 503 with Retry-After past the queue, charging nothing", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    // Any second call is over this budget; one call alone always runs.
    configureMemory({ budgetBytes: 1 * MiB, queueLength: 1, queueWaitMs: 30_000 });
    const before = await runtime();
    const results = await Promise.all(Array.from({ length: 4 }, () => resize(acct.key)));
    const statuses = results.map((r) => r.status).sort();
    expect(
      statuses.every((s) => s === 200 || s === 503),
      statuses.join(),
    ).toBe(true);
    const ok = results.filter((r) => r.status === 200);
    const busy = results.filter((r) => r.status === 503);
    // One runs, one waits for it and then runs, the other two find the queue full.
    expect(ok.length).toBe(2);
    expect(busy.length).toBe(2);
    for (const res of busy) {
      expect(res.headers.get("Retry-After")).toBe("2");
      expect(res.headers.get("X-Credits-Charged")).toBe("0");
      const body = (await res.json()) as { code: string; status: number };
      expect(body).toMatchObject({ code: "memory_busy", status: 503 });
    }
    for (const res of ok) expect(res.headers.get("X-Credits-Charged")).toBe("10");
    expect(await balanceOf(acct.token)).toBe(1000 - 10 * ok.length);
    const after = await runtime();
    expect(after.queued - before.queued).toBe(1);
    expect(after.refused - before.refused).toBe(2);
    expect(after.running).toBe(0);
    expect(after.waiting).toBe(0);
  });

  it("a call that waits longer than the queue allows is a 503, and nothing is charged", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    configureMemory({ budgetBytes: 1 * MiB, queueLength: 8, queueWaitMs: 50 });
    const results = await Promise.all([resize(acct.key), resize(acct.key), resize(acct.key)]);
    const ok = results.filter((r) => r.status === 200).length;
    const busy = results.filter((r) => r.status === 503);
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(ok + busy.length).toBe(3);
    for (const res of busy) expect(((await res.json()) as { detail: string }).detail).toMatch(/within 0 s|within \d+ s/);
    expect(await balanceOf(acct.token)).toBe(1000 - 10 * ok);
  });

  it("two running calls that both need more do not wait for each other: the older one grows, the other waits for it", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    // Room for both calls' first estimates, not for either one's real plan beside the other.
    configureMemory({ budgetBytes: (await runtime()).wasm_total + 40 * MiB, queueWaitMs: 15_000 });
    const before = await runtime();
    const results = await Promise.all([resize(acct.key, bigJpeg), resize(acct.key, bigJpeg)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const after = await runtime();
    expect(after.refused).toBe(before.refused);
    // Each real plan is more than half the room, so the two could not have run side by side.
    expect(after.largest_reservation).toBeGreaterThan(20 * MiB);
  });

  it("calls that fit run side by side: nothing waits under the default budget for small PDFs", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    const pdf = await plainPdf(2);
    const before = await runtime();
    const results = await Promise.all(Array.from({ length: 6 }, () => postForm("/api/v1/pdf/page-numbers", { file: file(pdf, "a.pdf") }, withKey(acct.key))));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect((await runtime()).refused).toBe(before.refused);
  });

  it("a call alone that would pass the budget first makes idle engines give their instances back", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    // Grow some heaps: MuPDF and the image codecs.
    expect((await postForm("/api/v1/pdf/page-numbers", { file: file(await plainPdf(1), "a.pdf") }, withKey(acct.key))).status).toBe(200);
    expect((await resize(acct.key, bigJpeg)).status).toBe(200);
    const grown = await runtime();
    expect(grown.wasm_total).toBeGreaterThan(16 * MiB);
    configureMemory({ budgetBytes: 2 * MiB, idleTargetBytes: 0 });
    expect((await postForm("/api/v1/pdf/page-numbers", { file: file(await plainPdf(1), "b.pdf") }, withKey(acct.key))).status).toBe(200);
    const after = await runtime();
    expect(after.released_idle).toBeGreaterThan(grown.released_idle);
    expect(after.mupdf.released_idle).toBeGreaterThan(grown.mupdf.released_idle);
    // The call ran on a fresh MuPDF; the codecs it did not need stay released.
    expect(after.mupdf.instances).toBe(grown.mupdf.instances + 1);
    // squoosh_png is the tests' reference decoder only, never on an HTTP call's road.
    const codecs = Object.entries(after.wasm_heaps).filter(([name]) => name !== "mupdf" && name !== "squoosh_png");
    expect(
      codecs.every(([, bytes]) => bytes === 0),
      JSON.stringify(after.wasm_heaps),
    ).toBe(true);
  });
});

/** A promise the test settles when it chooses. */
function gate(): { passed: Promise<void>; open: () => void } {
  let open = () => {};
  const passed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { passed, open };
}

describe("idle engines beside running calls", () => {
  it("a call that does not fit beside a running one takes the memory of engines no running call holds, at once; the held engine stays", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    // Grow MuPDF and the WebP encoder (a small picture: big ones drop their codecs within the call).
    expect((await postForm("/api/v1/pdf/page-numbers", { file: file(await plainPdf(1), "a.pdf") }, withKey(acct.key))).status).toBe(200);
    const small = writePng(photo(600, 400));
    expect(
      (await postForm("/api/v1/image/resize", { file: file(small, "s.png", "image/png"), width: "500", target_format: "webp" }, withKey(acct.key))).status,
    ).toBe(200);
    const grown = await runtime();
    expect(grown.wasm_heaps.mupdf).toBeGreaterThan(0);
    expect(grown.wasm_heaps.webp_enc).toBeGreaterThan(0);

    // A running call that has taken the WebP encoder and waits at an await.
    const holding = gate();
    const started = gate();
    const holder = withMemory(MiB, "holder", async () => {
      noteHeapUse("webp_enc");
      started.open();
      await holding.passed;
    });
    await started.passed;

    // Another call's trim leaves the encoder the holder has taken.
    trimCodecHeaps(0);
    expect((await runtime()).wasm_heaps.webp_enc).toBe(grown.wasm_heaps.webp_enc);

    // Room for the heaps and the holder, not for a second call of 8 MiB.
    configureMemory({ budgetBytes: (await runtime()).wasm_total + MiB + 2 * MiB });
    const before = await runtime();
    const seen = await withMemory(8 * MiB, "second", async () => runtime());
    holding.open();
    await holder;
    expect(seen.queued).toBe(before.queued);
    expect(seen.released_idle).toBeGreaterThan(before.released_idle);
    expect(seen.wasm_heaps.mupdf).toBe(0);
    expect(seen.wasm_heaps.webp_enc).toBe(grown.wasm_heaps.webp_enc);
    expect(seen.wasm_total).toBeLessThanOrEqual(seen.budget);
  });

  it("idle engines stay when releasing them would not make room anyway", async () => {
    const acct = await accountWithKey({ credits: 1000 });
    expect((await postForm("/api/v1/pdf/page-numbers", { file: file(await plainPdf(1), "a.pdf") }, withKey(acct.key))).status).toBe(200);
    const grown = await runtime();
    expect(grown.wasm_heaps.mupdf).toBeGreaterThan(0);
    const holding = gate();
    const holder = withMemory(8 * MiB, "holder", () => holding.passed);
    // Past the heaps and the holder by more than all the idle heaps hold: the second call must wait for the holder.
    configureMemory({ budgetBytes: grown.wasm_total + 8 * MiB + MiB, queueWaitMs: 10_000 });
    const second = withMemory(grown.wasm_total + 4 * MiB, "second", async () => runtime());
    await new Promise((r) => setTimeout(r, 100));
    const waiting = await runtime();
    expect(waiting.waiting).toBe(1);
    expect(waiting.wasm_heaps.mupdf).toBe(grown.wasm_heaps.mupdf);
    holding.open();
    await holder;
    expect((await second).running).toBe(1);
  });
});

describe("the queue is first come, first served", () => {
  it("a small call that would fit does not pass a big one already waiting: it runs after it", async () => {
    const holding = gate();
    const started = gate();
    // The holder has taken every engine, so no idle heap can make room for the big call.
    const holder = withMemory(6 * MiB, "holder", async () => {
      for (const name of Object.keys(heapReport())) noteHeapUse(name);
      started.open();
      await holding.passed;
    });
    await started.passed;
    const heaps = (await runtime()).wasm_total;
    configureMemory({ budgetBytes: heaps + 10 * MiB, queueWaitMs: 10_000 });
    const order: string[] = [];
    // Too big beside the holder; and the small one does not fit beside it even once every idle heap is gone.
    const big = withMemory(heaps + 8 * MiB, "big", async () => void order.push("big"));
    await new Promise((r) => setTimeout(r, 50));
    // Beside the holder there is room for this one.
    const small = withMemory(3 * MiB, "small", async () => void order.push("small"));
    await new Promise((r) => setTimeout(r, 100));
    const waiting = await runtime();
    expect(waiting.waiting).toBe(2);
    expect(order).toEqual([]);
    holding.open();
    await Promise.all([holder, big, small]);
    expect(order).toEqual(["big", "small"]);
  });
});

describe("what a call is estimated at", () => {
  it("30 MB of newlines asks for its two copies, not the budget: beside a call holding 30 MiB it is refused at once as too_many_pages, not queued into a 503", async () => {
    const acct = await accountWithKey({ credits: 100 });
    const holding = gate();
    const started = gate();
    const holder = withMemory(30 * MiB, "holder", async () => {
      started.open();
      await holding.passed;
    });
    await started.passed;
    // A short queue: a call estimated at the whole budget would wait behind the holder and answer 503.
    configureMemory({ queueWaitMs: 1_000 });
    const before = await runtime();
    const res = await postForm(
      "/api/v1/conversion/single",
      { file: file(new Uint8Array(30_000_000).fill(0x0a), "newlines.txt", "text/plain"), target_format: "pdf" },
      withKey(acct.key),
    );
    const during = await runtime();
    holding.open();
    await holder;
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe("too_many_pages");
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
    expect(during.queued).toBe(before.queued);
    expect(during.refused).toBe(before.refused);
    expect(await balanceOf(acct.token)).toBe(100);
  });
});

describe("the wasm-bindgen codecs", () => {
  it("oxipng and squoosh's resize run on an instance of their own that goes with the call: no heap stays behind", async () => {
    const { key } = await accountWithKey({ credits: 100 });
    // Under 0.5 MP a PNG output goes through oxipng; under 1 MP a resize through squoosh's Lanczos3.
    const small = writePng(photo(600, 400));
    const optimised = await postForm("/api/v1/image/compress", { file: file(small, "s.png", "image/png"), quality: "100" }, withKey(key));
    expect(optimised.status).toBe(200);
    const resized = await postForm("/api/v1/image/resize", { file: file(small, "s.png", "image/png"), width: "300", target_format: "png" }, withKey(key));
    expect(resized.status).toBe(200);
    const after = await runtime();
    expect(after.wasm_heaps.squoosh_oxipng).toBe(0);
    expect(after.wasm_heaps.squoosh_resize).toBe(0);
    // oxipng did run: the lossless output is smaller than our plain writer's.
    expect((await optimised.arrayBuffer()).byteLength).toBeLessThan(small.length);
  });
});

describe("a mixed sequence of heavy calls in one isolate", () => {
  it("one after another and interleaved, the WASM peak never passes 100 MB", { timeout: 300_000 }, async () => {
    const { key } = await accountWithKey({ credits: 100_000 });
    const photo12 = await bandedJpeg(4000, 3000);
    const text = await plainPdf(40);
    const calls = [
      () => postForm("/api/v1/image/compress", { file: file(photo12, "phone.jpg", "image/jpeg") }, withKey(key)),
      () => postForm("/api/v1/image/convert", { file: file(photo12, "phone.jpg", "image/jpeg"), target_format: "png" }, withKey(key)),
      () => postForm("/api/v1/image/resize", { file: file(photo12, "phone.jpg", "image/jpeg"), width: "1600", target_format: "avif" }, withKey(key)),
      () => postForm("/api/v1/redact", { file: file(text, "t.pdf"), entity_types: "EMAIL,PHONE" }, withKey(key)),
      () => postForm("/api/v1/image/convert", { file: file(bigPng, "big.png", "image/png"), target_format: "webp" }, withKey(key)),
      () => postForm("/api/v1/watermark/text", { file: file(text, "t.pdf"), text: "سري للغاية" }, withKey(key)),
      () => postForm("/api/v1/pdf/merge/merge", { files: [file(text, "a.pdf"), file(text, "b.pdf")] }, withKey(key)),
    ];
    for (const run of calls) expect((await run()).status).toBe(200);
    for (let i = 0; i < calls.length; i += 2) {
      const pair = await Promise.all(calls.slice(i, i + 2).map((run) => run()));
      expect(pair.map((r) => r.status).every((s) => s === 200)).toBe(true);
    }
    const r = await runtime();
    console.log(
      `Isolate memory after the mixed sequence: peak ${(r.wasm_peak / MiB).toFixed(1)} MiB, now ${(r.wasm_total / MiB).toFixed(1)} MiB; at the peak:`,
      r.wasm_peak_heaps,
    );
    expect(r.wasm_peak).toBeLessThanOrEqual(r.budget);
  });

  it("compressing a 300 dpi scan stays inside the budget: the scan's JPEG is re-encoded by the banded reader, not decoded whole by MuPDF", {
    timeout: 120_000,
  }, async () => {
    const { key } = await accountWithKey({ credits: 100_000 });
    const scan = await scannedPdf(1);
    const before = await runtime();
    const compressed = await postJson("/api/v1/compression/single", { file_data: toBase64(scan), filename: "scan.pdf" }, withKey(key));
    expect(compressed.status).toBe(200);
    const r = await runtime();
    // The road taken: MuPDF's whole decode of this 8.7 MP colour scan took the isolate to 119 MiB.
    expect(r.mupdf.image_roads.banded_jpeg - before.mupdf.image_roads.banded_jpeg).toBe(1);
    expect(r.mupdf.image_roads.mupdf - before.mupdf.image_roads.mupdf).toBe(0);
    console.log(`Scan compression: isolate peak ${(r.wasm_peak / MiB).toFixed(1)} MiB; at the peak:`, r.wasm_peak_heaps);
    expect(r.wasm_peak).toBeLessThanOrEqual(r.budget);
  });
});
