import { describe, expect, it } from "vitest";
import { DEFAULT_MEMORY_LIMITS } from "../../../src/runtime/memory";
import { loadMupdf, MUPDF_RECYCLE_BYTES, mupdfHeapBytes, mupdfInstanceStats, withMupdfCall } from "../../../src/engines/mupdf/core/loader";
import { pageBytes, renderPages, WHOLE_PAGE_PIXELS } from "../../../src/engines/mupdf/render/page-images";
import { wasmTotal } from "../../../src/engines/heap";
import { withMupdf } from "../../support/mupdf";
import { fixturePdf } from "../../support/pdf.mjs";

// Issue #31: the largest MuPDF heap of the test suite was one call, PDF →
// PNG of a 5000 pt poster (pdf-to-images.test.ts, "huge pages are drawn
// smaller"): an 8 MP page took MuPDF from 22 to 95 MB against a reservation
// of 58 MiB, and the same page to JPEG to 114 MB. MuPDF's PNG writer holds
// three copies of the pixmap, its JPEG writer a whole-image coefficient
// buffer. This runs those renders on a fresh instance and reads its heap.

const MiB = 1024 * 1024;
const BASE = 8 * MiB;

const poster = () => fixturePdf([{ size: [5000, 5000], fontSize: 200, lines: Array.from({ length: 14 }, (_, i) => `Poster line ${i + 1} WMWMWM`) }]);

/** A fresh MuPDF instance for the next call: grow the current one past the recycle bound. */
async function freshInstance(): Promise<void> {
  const before = mupdfInstanceStats().recycled;
  await withMupdfCall(async () => {
    const mupdf = await loadMupdf();
    new mupdf.Buffer(new Uint8Array(MUPDF_RECYCLE_BYTES)).destroy();
  });
  expect(mupdfInstanceStats().recycled).toBe(before + 1);
}

/**
 * MuPDF's heap when the render ends (a WebAssembly memory never shrinks: its
 * peak) and when it started, and how much every WASM heap together grew.
 */
async function heapOf(render: () => Promise<unknown>): Promise<{ start: number; peak: number; allGrew: number }> {
  await freshInstance();
  let start = 0;
  let peak = 0;
  let allGrew = 0;
  await withMupdfCall(async () => {
    await loadMupdf();
    start = mupdfHeapBytes();
    const total = wasmTotal();
    await render();
    peak = mupdfHeapBytes();
    allGrew = wasmTotal() - total;
  });
  return { start, peak, allGrew };
}

describe("PDF pages to images keep MuPDF's heap within what the call reserves", () => {
  it("an 8 MP poster page to PNG is drawn in bands: the heap stays within the page's share of the reservation and far under the budget", async () => {
    const pdf = await poster();
    let png: Uint8Array = new Uint8Array(0);
    const { start, peak } = await heapOf(async () => {
      png = (await renderPages(pdf, "png", 85)).images[0];
    });
    const pixels = new DataView(png.buffer, png.byteOffset).getUint32(16) * new DataView(png.buffer, png.byteOffset).getUint32(20);
    expect(pixels).toBeGreaterThan(WHOLE_PAGE_PIXELS);
    console.log(
      `MuPDF heap, 8 MP poster to PNG: ${(start / MiB).toFixed(1)} -> ${(peak / MiB).toFixed(1)} MiB (page share ${(pageBytes(pixels, "png") / MiB).toFixed(1)} MiB)`,
    );
    expect(peak - start).toBeLessThanOrEqual(BASE + pageBytes(pixels, "png"));
    expect(peak).toBeLessThan(DEFAULT_MEMORY_LIMITS.budgetBytes / 2);

    // The bands join into the page MuPDF draws whole.
    const same = await withMupdf((mupdf) => {
      const doc = mupdf.Document.openDocument(pdf, "application/pdf");
      const page = doc.loadPage(0);
      const decoded = new mupdf.Image(png).toPixmap();
      const [w, h] = [decoded.getWidth(), decoded.getHeight()];
      const whole = page.toPixmap(mupdf.Matrix.scale(w / 5000, h / 5000), mupdf.ColorSpace.DeviceRGB, false, true);
      const [a, b] = [whole.getPixels(), decoded.getPixels()];
      let differ = 0;
      let ink = 0;
      for (let i = 0; i < a.length; i++) {
        if (Math.abs(a[i] - b[i]) > 2) differ++;
        if (a[i] < 128) ink++;
      }
      const out = { size: [whole.getWidth(), whole.getHeight()], n: decoded.getNumberOfComponents(), differ, ink, total: a.length };
      [whole, decoded, page, doc].forEach((o) => o.destroy());
      return out;
    });
    expect(same.size).toEqual([same.size[0], same.size[1]]);
    expect(same.n).toBe(3);
    expect(same.ink).toBeGreaterThan(100_000);
    expect(same.differ / same.total).toBeLessThan(0.001);
  }, 120_000);

  it("the same page to JPEG is drawn and encoded in bands too, its fidelity read back in bands", async () => {
    const pdf = await poster();
    let fidelity = 0;
    const { start, peak, allGrew } = await heapOf(async () => {
      fidelity = (await renderPages(pdf, "jpg", 85)).fidelity;
    });
    // The band writers' MozJPEG heaps are part of the page's share.
    expect(allGrew).toBeLessThanOrEqual(pageBytes(8_000_000, "jpg"));
    const pixels = 8_000_000;
    console.log(
      `MuPDF heap, 8 MP poster to JPEG: ${(start / MiB).toFixed(1)} -> ${(peak / MiB).toFixed(1)} MiB (page share ${(pageBytes(pixels, "jpg") / MiB).toFixed(1)} MiB)`,
    );
    expect(peak - start).toBeLessThanOrEqual(BASE + pageBytes(pixels, "jpg"));
    expect(peak).toBeLessThan(DEFAULT_MEMORY_LIMITS.budgetBytes / 2);
    expect(fidelity).toBeGreaterThan(0.9);
  }, 120_000);
});
