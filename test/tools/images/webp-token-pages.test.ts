import { beforeAll, describe, expect, it } from "vitest";
import { encodeJpegFromRows } from "../../../src/engines/images";
import { bandMessage, closeWebpBand, openWebpBand } from "../../../src/engines/images/codecs/webp-band";
import { writePng } from "../../../src/engines/images/codecs/png-writer";
import { decodeWebp } from "../../../src/engines/images/codecs/webp";
import { imageRoadsTaken } from "../../../src/engines/images/memory/roads-taken";
import type { Pixels } from "../../../src/engines/images/types";
import { WebpBandSource } from "../../../src/engines/images/webp/band-source";
import { WEBP_BAND_HEAP_CAP } from "../../../src/engines/images/webp/band-writer";
import { webpBandProbe } from "../../../src/engines/images/webp/probe";
import { file, photo } from "../../support/images/fixtures";
import { runtimeReport } from "../../support/runtime";
import { postForm, problem } from "../../support/http";
import { ok } from "./client";
import { formatOf, sizeOf } from "./inspect";

// Issue #10: libwebp's token buffer on big noisy photos. Tokens take 1 to 3
// bytes a pixel beside the planes' 1.5, so a 24 MP photo of heavy grain
// would pass our instance's 72 MiB heap cap. The patched loop keeps token
// pages in the picture rows it has already encoded once 24 MiB of them are in
// the heap (one pass, cwebp's bytes), and if those rows run short it codes
// the remaining macroblocks at once. Before, such a picture was encoded a
// second time in libwebp's low-memory mode, at the cap.
// The engine tests below reach the same roads on 3 MP pictures by capping
// the heap's token pages (`_enc_token_heap_limit`, for tests only).

const MiB = 1024 * 1024;

/** Deterministic grain of +-`amount` on every colour sample, from row `fromRow` on (a fixed LCG). */
function grainy(px: Pixels, amount: number, fromRow = 0): Pixels {
  const data = new Uint8Array(px.data);
  let seed = 7;
  for (let i = fromRow * px.width * 4; i < data.length; i++) {
    if ((i & 3) === 3) continue;
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = Math.max(0, Math.min(255, data[i] + ((seed >> 16) % (2 * amount + 1)) - amount));
  }
  return { data, width: px.width, height: px.height };
}

interface Encoded {
  bytes: Uint8Array;
  /** 0 tokens all in the heap, 1 partly in spent rows, 2 so and the last macroblocks coded at once. */
  road: number;
  lowMemory: boolean;
}

/** Our libwebp build's encoder on `px`, with the heap's token pages capped at `tokenHeapLimit` bytes (0: the heap cap only). */
async function encodePlanes(px: Pixels, quality: number, tokenHeapLimit: number): Promise<Encoded> {
  const { m, ticket } = await openWebpBand();
  try {
    expect(m._enc_begin(px.width, px.height, 1, 0), bandMessage(m)).toBe(1);
    const at = m._enc_buffer(px.height);
    m.HEAPU8.set(px.data, at);
    expect(m._enc_rows(px.height), bandMessage(m)).toBe(1);
    m._enc_token_heap_limit(tokenHeapLimit);
    const n = m._enc_finish(quality, 4, 0, -1);
    expect(n, bandMessage(m)).toBeGreaterThan(0);
    return { bytes: m.HEAPU8.slice(m._enc_output(), m._enc_output() + n), road: m._enc_token_road(), lowMemory: m._enc_used_low_memory() === 1 };
  } finally {
    m._enc_release();
    closeWebpBand(ticket);
  }
}

function psnrOf(a: Pixels, b: Pixels): number {
  let se = 0;
  for (let i = 0; i < a.data.length; i++) if ((i & 3) !== 3) se += (a.data[i] - b.data[i]) ** 2;
  return 10 * Math.log10((255 * 255) / (se / ((a.data.length / 4) * 3)));
}

describe("libwebp's tokens past the heap cap (3 MP, token pages capped)", () => {
  const grain = grainy(photo(2000, 1500), 16);
  // A clean photo above, pure noise below: the rows that fill the heap are not the rows that decide the rest.
  const noisyBelow = grainy(photo(2000, 1500), 60, 750);

  it("keeps token pages in the rows already encoded: one pass, the same file byte for byte", async () => {
    const free = await encodePlanes(grain, 75, 0);
    expect(free).toMatchObject({ road: 0, lowMemory: false });
    const capped = await encodePlanes(grain, 75, 6 * MiB);
    expect(capped).toMatchObject({ road: 1, lowMemory: false });
    expect(capped.bytes).toEqual(free.bytes);
  }, 60_000);

  it("codes the last macroblocks at once when the encoded rows run short: a valid file of the same quality", async () => {
    const free = await encodePlanes(noisyBelow, 75, 0);
    const capped = await encodePlanes(noisyBelow, 75, 4 * MiB);
    expect(capped).toMatchObject({ road: 2, lowMemory: false });
    expect(capped.bytes).not.toEqual(free.bytes);
    const [a, b] = [await decodeWebp(free.bytes), await decodeWebp(capped.bytes)];
    expect([b.width, b.height]).toEqual([2000, 1500]);
    // The coefficient probabilities come from the rows before the switch; the decisions are the same.
    expect(Math.abs(psnrOf(b, noisyBelow) - psnrOf(a, noisyBelow))).toBeLessThan(0.05);
    expect(Math.abs(capped.bytes.length / free.bytes.length - 1)).toBeLessThan(0.03);
  }, 60_000);

  it("falls back to libwebp's low-memory mode when no encoded row can hold a page yet", async () => {
    // Two pages of the heap fill within the first few macroblock rows, before a page fits in the rows spent.
    const capped = await encodePlanes(grain, 75, 1 * MiB);
    expect(capped).toMatchObject({ road: 0, lowMemory: true });
    const free = await encodePlanes(grain, 75, 0);
    // Low-memory mode's file differs a little (its probabilities come from a first pass), not its quality.
    expect(capped.bytes).not.toEqual(free.bytes);
    const [a, b] = [await decodeWebp(free.bytes), await decodeWebp(capped.bytes)];
    expect(Math.abs(psnrOf(b, grain) - psnrOf(a, grain))).toBeLessThan(0.05);
  }, 60_000);
});

describe("big noisy pictures to WebP over HTTP", () => {
  const W = 6000;
  const H = 4000;
  let source: Pixels;
  let jpeg: Uint8Array;

  beforeAll(async () => {
    source = grainy(photo(W, H), 16);
    const rows = (y0: number, y1: number) => ({ data: source.data.subarray(y0 * W * 4, y1 * W * 4), width: W, height: y1 - y0 });
    jpeg = await encodeJpegFromRows(W, H, 95, rows);
  }, 120_000);

  it("keeps its tokens past 24 MiB of heap in the rows already encoded: one pass, a smaller heap, within the budget", async () => {
    const before = { ...webpBandProbe };
    const roads = imageRoadsTaken();
    const out = await ok("/api/v1/image/convert", { file: file(jpeg, "grain.jpg"), target_format: "webp", quality: "75" });
    expect(imageRoadsTaken().sinks["webp-planes"]).toBe((roads.sinks["webp-planes"] ?? 0) + 1);
    expect(webpBandProbe.spentRowWrites).toBe(before.spentRowWrites + 1);
    expect(webpBandProbe.directRowWrites).toBe(before.directRowWrites);
    expect(webpBandProbe.lowMemoryWrites).toBe(before.lowMemoryWrites);
    // The planes (36 MB), 24 MiB of token pages and libwebp's state: 66 MiB measured, under the 72 MiB cap.
    expect(webpBandProbe.largestHeap).toBeLessThanOrEqual(68 * MiB);
    expect(WEBP_BAND_HEAP_CAP).toBe(72 * MiB);
    const runtime = await runtimeReport();
    expect(runtime.wasm_peak).toBeLessThanOrEqual(runtime.budget);
    expect(formatOf(out.bytes)).toBe("webp");
    expect(sizeOf(out.bytes)).toEqual([W, H]);
    // Read back in bands (a whole 24 MP decode would itself pass the budget).
    let se = 0;
    for await (const band of new WebpBandSource(out.bytes, W, H).bands(1 << 19)) {
      const d = band.pixels.data;
      const at = band.y * W * 4;
      for (let i = 0; i < d.length; i++) if ((i & 3) !== 3) se += (d[i] - source.data[at + i]) ** 2;
    }
    // Grain of +-16 at quality 75 (a third-party decoder of the same file: e2e/images.test.mjs against cwebp).
    expect(10 * Math.log10((255 * 255) / (se / (W * H * 3)))).toBeGreaterThan(26);
  }, 240_000);

  it("answers 422 image_too_large for 16 MP of pure noise at quality 100, naming the size that always fits; nothing charged", async () => {
    const [w, h] = [4900, 3266];
    const data = new Uint8Array(w * h * 4);
    let seed = 3;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      data[i] = (i & 3) === 3 ? 255 : (seed >> 16) & 255;
    }
    const png = writePng({ data, width: w, height: h }, "rgb");
    // Tokens, then low memory, then partition 0 without intra-4 modes: a 17 MB frame and its copy still pass the heap cap.
    const res = await postForm("/api/v1/image/convert", { file: file(png, "noise.png"), target_format: "webp", quality: "100" });
    const body = await problem(res);
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(body.code).toBe("image_too_large");
    expect(body.detail).toContain("An opaque WebP is always written up to 13.8 megapixels");
    expect(res.headers.get("X-Credits-Charged")).toBe("0");
  }, 240_000);
});
