import { describe, expect, it } from "vitest";
import { encodeJpeg } from "../../src/engines/images/codecs/jpeg";
import { encodePng } from "../../src/engines/images/codecs/png";
import { encodeWebp } from "../../src/engines/images/codecs/webp";
import { heapReport, releaseIdleHeaps } from "../../src/engines/heap";
import { loadMupdf } from "../../src/engines/mupdf/core/loader";

// An engine instance shared by every request must finish starting within the
// microtasks of the request that starts it: were its start to wait for a
// task (a timer, an import, an asynchronous instantiation), another request
// could await the start while it is pending, and would hang for good if the
// starting request were cancelled meanwhile (settled-cache.ts says why).

async function settlesWithinMicrotasks(start: () => Promise<unknown>): Promise<boolean> {
  let settled = false;
  start().then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 10_000 && !settled; i++) await Promise.resolve();
  return settled;
}

describe("engines shared by every request start without waiting for a task", () => {
  const pixel = () => ({ data: new Uint8ClampedArray([200, 100, 50, 255]), width: 1, height: 1 });

  // Each engine is started afresh (an earlier test in this isolate may have started it already), then asked to start again.
  it.each([
    ["MuPDF", "mupdf", () => loadMupdf()],
    ["MozJPEG", "mozjpeg_enc", () => encodeJpeg(pixel(), 80)],
    ["libwebp", "webp_enc", () => encodeWebp(pixel(), 80)],
  ])("%s", async (_name, heap, start) => {
    releaseIdleHeaps(0);
    expect(heapReport()[heap] ?? 0).toBe(0);
    expect(await settlesWithinMicrotasks(start)).toBe(true);
    expect(heapReport()[heap]).toBeGreaterThan(0);
  });

  // Started once for the isolate's life (no release), so only the first start in an isolate is judged.
  it("squoosh PNG", async () => {
    expect(await settlesWithinMicrotasks(() => encodePng(pixel()))).toBe(true);
  });
});
