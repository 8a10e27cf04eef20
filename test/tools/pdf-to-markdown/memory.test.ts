import { describe, expect, it } from "vitest";
import { textPdf } from "../../support/pdf.mjs";
import { runtime } from "../../engines/mupdf-heap/calls";
import { toMarkdown } from "./client";

// Issue 12: a 500-page text PDF converts inside the 128 MB isolate. Pages are
// read one at a time with destroy() and emptyStore() between them, so
// MuPDF's heap stays near its size for one page. Local workerd enforces no
// limit; the heap is read from the operator runtime endpoint instead.

const MiB = 1024 * 1024;

describe("PDF to Markdown: memory and speed", () => {
  it("converts 500 pages with MuPDF's heap bounded, and reports it", async () => {
    const pdf = await textPdf(500);
    const started = Date.now();
    const body = await toMarkdown(pdf);
    const seconds = (Date.now() - started) / 1000;
    const after = await runtime();
    console.log(
      `500 pages in ${seconds.toFixed(1)} s (${(500 / seconds).toFixed(0)} pages/s); MuPDF heap after the call ${(after.mupdfBytes / MiB).toFixed(1)} MiB`,
    );
    expect(body.pages).toBe(500);
    // Line 4 of every page is the same shape: not furniture (it is body text in the middle of the page).
    expect(body.markdown).toContain("jane.doe500@example.com");
    expect(body.markdown).toContain("Page 250, line 1:");
    expect(body.word_count).toBeGreaterThan(500 * 50 * 10);
    expect(after.mupdfBytes).toBeLessThanOrEqual(after.bound + 16 * MiB);
  }, 120_000);
});
