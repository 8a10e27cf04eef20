import { describe, expect, it } from "vitest";
import { SUBSET_MAX_PAGES } from "../../../src/engines/convert/flow-layout";
import { textToPdf } from "../../../src/engines/convert/text-pdf";
import { loadMupdf, MUPDF_RECYCLE_BYTES, mupdfHeapBytes, mupdfInstanceStats, withMupdfCall } from "../../../src/engines/mupdf/core/loader";

// Issue #31: TXT → PDF laid out whole held every page's boxes in MuPDF's heap
// (1,042 pages of text: 22 → 197 MB, 51 s). Laid out a stretch at a time,
// the heap grows by the fonts and, up to SUBSET_MAX_PAGES, by the font
// subsetting, whatever the length: within the 16 MiB Convert document
// reserves for it (src/tools/convert-document.ts).

const MiB = 1024 * 1024;
const RESERVED_FOR_MUPDF = 16 * MiB;

async function freshInstance(): Promise<void> {
  const before = mupdfInstanceStats().recycled;
  await withMupdfCall(async () => {
    const mupdf = await loadMupdf();
    new mupdf.Buffer(new Uint8Array(MUPDF_RECYCLE_BYTES)).destroy();
  });
  expect(mupdfInstanceStats().recycled).toBe(before + 1);
}

const lines = (n: number, text: (i: number) => string) => new TextEncoder().encode(Array.from({ length: n }, (_, i) => text(i)).join("\n"));

describe("TXT → PDF keeps MuPDF's heap within its reservation, however long the text", () => {
  for (const [name, bytes, minPages] of [
    [
      "a page of Latin, Greek, Cyrillic, CJK and Arabic",
      lines(40, (i) => ["Grüße", "Καλημέρα", "Привет", "你好世界", "こんにちは", "안녕하세요", "مرحبا بالعالم"][i % 7]),
      1,
    ],
    [
      `${SUBSET_MAX_PAGES - 20} pages (fonts subset)`,
      lines(48 * (SUBSET_MAX_PAGES - 20), (i) => `Line ${i}: the quick brown fox jumps over the lazy dog.`),
      SUBSET_MAX_PAGES - 20,
    ],
    ["700 pages (whole fonts kept)", lines(48 * 700, (i) => `Line ${i}: the quick brown fox jumps over the lazy dog.`), 700],
  ] as const) {
    it(name, async () => {
      await freshInstance();
      let grew = -1;
      let pages = 0;
      const started = Date.now();
      await withMupdfCall(async () => {
        await loadMupdf();
        const start = mupdfHeapBytes();
        pages = (await textToPdf(bytes)).pages;
        grew = mupdfHeapBytes() - start;
      });
      console.log(`MuPDF heap, TXT → PDF of ${pages} pages: grew ${(grew / MiB).toFixed(1)} MiB in ${Date.now() - started} ms`);
      expect(pages).toBeGreaterThanOrEqual(minPages);
      expect(grew).toBeLessThanOrEqual(RESERVED_FOR_MUPDF);
    }, 300_000);
  }
});
