import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createKey } from "../../support/accounts";
import { ADMIN_TOKEN, call, pdfFile, postForm, postJson, withKey } from "../../support/http";
import { textPdf, encryptedPdf, makeImage } from "../../support/pdf.mjs";
import { toBase64 } from "../../../src/secrets/encoding";

// Long runs of real API calls in one isolate, reading MuPDF's WASM heap from
// the operator runtime endpoint between calls (issue #18). Local workerd
// enforces no memory limit, so this is where a heap that creeps upwards
// shows before production kills an isolate.

const MiB = 1024 * 1024;

export interface Runtime {
  mupdfBytes: number;
  instances: number;
  recycled: number;
  bound: number;
}

export async function runtime(): Promise<Runtime> {
  const res = await call("/admin/v1/runtime", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { wasm_heaps: Record<string, number>; mupdf: { instances: number; recycled: number; recycle_above_bytes: number } };
  return { mupdfBytes: body.wasm_heaps.mupdf, instances: body.mupdf.instances, recycled: body.mupdf.recycled, bound: body.mupdf.recycle_above_bytes };
}

export interface Fixtures {
  doc: Uint8Array;
  small: Uint8Array;
  locked: Uint8Array;
  stampPng: Uint8Array;
  /** The current API key; a fresh one every KEY_CALLS calls (300 calls a minute per key, wrangler.toml). */
  key: string;
  token: string;
  callsOnKey: number;
}

const KEY_CALLS = 250;

export async function fixtures(): Promise<Fixtures> {
  const doc = await textPdf(40);
  const small = await textPdf(3);
  const locked = await lock(doc);
  const stampPng = await makeImage("png", 400, 200, [200, 30, 30]);
  const { token } = await createAccount({ credits: 10_000_000 });
  const { api_key: key } = await createKey(token);
  return { doc, small, locked, stampPng, key, token, callsOnKey: 0 };
}

async function lock(bytes: Uint8Array): Promise<Uint8Array> {
  // encryptedPdf() locks a one-page file; the heap runs want 40 locked pages.
  const one = await encryptedPdf();
  expect(one.byteLength).toBeGreaterThan(0);
  const { loadMupdf } = await import("../../../src/engines/mupdf/core/loader");
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
  try {
    const buf = doc.saveToBuffer("encrypt=aes-256,user-password=secret,owner-password=owner");
    try {
      return buf.asUint8Array().slice();
    } finally {
      buf.destroy();
    }
  } finally {
    doc.destroy();
  }
}

export type ToolCall = (f: Fixtures) => Promise<Response>;

const file = (f: Fixtures) => pdfFile(f.doc, "doc.pdf");

/** One real call per PDF tool, each expected to answer 200. */
export const PDF_TOOL_CALLS: Record<string, ToolCall> = {
  merge: (f) => postForm("/api/v1/pdf/merge/merge", { files: [pdfFile(f.doc, "a.pdf"), pdfFile(f.small, "b.pdf")] }, withKey(f.key)),
  split: (f) =>
    postForm(
      "/api/v1/pdf/split/split",
      {
        file: file(f),
        split_mode: "page_range",
        split_config: JSON.stringify({
          ranges: [
            [1, 20],
            [21, 40],
          ],
        }),
      },
      withKey(f.key),
    ),
  compress: (f) => postJson("/api/v1/compression/single", { file_data: toBase64(f.doc), filename: "doc.pdf" }, withKey(f.key)),
  unlock: (f) => postForm("/api/v1/security/security/password/remove", { file: pdfFile(f.locked, "locked.pdf"), password: "secret" }, withKey(f.key)),
  repair: (f) => postForm("/api/v1/pdf/repair", { file: file(f) }, withKey(f.key)),
  watermark_text: (f) => postForm("/api/v1/watermark/text", { file: file(f), text: "CONFIDENTIAL", opacity: "0.3" }, withKey(f.key)),
  watermark_image: (f) =>
    postForm("/api/v1/watermark/image", { file: file(f), watermark: new File([f.stampPng], "stamp.png", { type: "image/png" }) }, withKey(f.key)),
  page_numbers: (f) => postForm("/api/v1/pdf/page-numbers", { file: file(f), fmt: "Page {n} of {total}" }, withKey(f.key)),
  metadata: (f) => postForm("/api/v1/analyze/metadata", { file: file(f) }, withKey(f.key)),
  pdfa: (f) => postForm("/api/v1/pdf/pdfa/validate", { file: file(f) }, withKey(f.key)),
  redact: (f) => postForm("/api/v1/redact", { file: file(f), entity_types: "email,phone" }, withKey(f.key)),
};

export interface HeapTrace {
  /** MuPDF heap after call i (index 0: before the first call). */
  bytes: number[];
  recycled: number;
  bound: number;
}

/** Runs `calls` in order, `rounds` times, checking each answer and reading the heap after each call. */
export async function traceHeap(f: Fixtures, calls: ToolCall[], total: number): Promise<HeapTrace> {
  const before = await runtime();
  const bytes = [before.mupdfBytes];
  for (let i = 0; i < total; i++) {
    if (++f.callsOnKey > KEY_CALLS) {
      f.key = (await createKey(f.token)).api_key;
      f.callsOnKey = 1;
    }
    const res = await calls[i % calls.length](f);
    if (res.status !== 200) throw new Error(`call ${i + 1}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    bytes.push((await runtime()).mupdfBytes);
  }
  const after = await runtime();
  return { bytes, recycled: after.recycled - before.recycled, bound: after.bound };
}

export const mib = (n: number) => Math.round((n / MiB) * 10) / 10;

/** The mixed sequence (lifetime.test.ts): every tool in turn, 500 calls. */
export const HEAP_CALLS = 500;
/**
 * Each tool alone. The leaks issue #18 found grew the heap by 100 KB or more a
 * call; 100 calls after the warm-up at call 50 show anything over 20 KB a call,
 * and the mixed run's 500 calls watch the slower creep. (500 calls of each of
 * 11 tools took 22 minutes of CI.)
 */
export const TOOL_HEAP_CALLS = 150;
/** Allowed growth between call 50 (warmed up) and the last call. */
export const FLAT_BYTES = 2 * MiB;

/**
 * The bar for a heap that does not creep: from call 50 to the last
 * call it grows by at most 2 MB, it is never above the recycling bound
 * between calls, and no recycle was needed to get there.
 */
export function expectFlat(trace: HeapTrace, label: string): void {
  const warm = trace.bytes[50];
  const last = trace.bytes[trace.bytes.length - 1];
  const points = trace.bytes
    .filter((_, i) => i % 50 === 0)
    .map(mib)
    .join(" ");
  // The figures docs/memory.md quotes, in the CI log.
  console.log(`MuPDF heap, ${label}: MiB every 50 calls ${points}; recycled ${trace.recycled}`);
  expect(last - warm, `${label}: MiB every 50 calls ${points}`).toBeLessThanOrEqual(FLAT_BYTES);
  expect(Math.max(...trace.bytes), `${label}: MiB every 50 calls ${points}`).toBeLessThanOrEqual(trace.bound);
  expect(trace.recycled, `${label}: recycles`).toBe(0);
}

/**
 * One test per named tool: TOOL_HEAP_CALLS calls in this isolate, heap flat. The
 * tools are spread over several test files so vitest runs them side by side.
 */
export function heapSuite(names: (keyof typeof PDF_TOOL_CALLS)[]): void {
  describe("MuPDF heap over many calls (issue #18)", () => {
    let f: Fixtures;
    beforeAll(async () => {
      f = await fixtures();
    });
    for (const name of names) {
      it(`${name}: ${TOOL_HEAP_CALLS} calls on a 40-page PDF leave MuPDF's heap flat`, async () => {
        expectFlat(await traceHeap(f, [PDF_TOOL_CALLS[name]], TOOL_HEAP_CALLS), name);
      }, 900_000);
    }
  });
}
