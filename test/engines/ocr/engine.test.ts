import { describe, expect, it } from "vitest";
import { heapReport, releaseIdleHeaps } from "../../../src/engines/heap";
import { withPdf } from "../../../src/engines/mupdf/core/document";
import { bands } from "../../../src/engines/ocr/bands";
import { ocrHeapBytes, ocrInstanceStats } from "../../../src/engines/ocr/engine";
import { type OcrPage, ocrPage } from "../../../src/engines/ocr/page";
import { recognizeGray } from "../../../src/engines/ocr/recognize";
import { renderGray } from "../../../src/engines/mupdf/render/render";
import { layoutPdf, scanOf } from "../../support/pdf.mjs";

// The OCR engine on scans made in code: a text PDF rendered to pixels by
// the test-only MuPDF (test/support/pdf.mjs scanOf), read back by Tesseract
// in the OCR Worker (ocrPage goes through the OCR service binding).

const LINES = ["Invoice summary for March", "The quick brown fox jumps over the lazy dog", "Payment is due within thirty days"];
const source = () => layoutPdf([LINES.map((text, i) => ({ text, x: 72, y: 100 + i * 24, size: 14 }))]);

const read = (pdf: Uint8Array): Promise<OcrPage> => withPdf(pdf, (doc, mupdf) => ocrPage(doc, mupdf, 0));
const textOf = (page: OcrPage) => page.words.map((w) => w.text).join(" ");

describe("OCR engine", () => {
  it("reads words with confidence, in points of the page, grouped in lines", async () => {
    const page = await read(await scanOf(await source(), { dpi: 200 }));
    expect(textOf(page)).toBe(LINES.join(" "));
    expect(page).toMatchObject({ rotation: 0 });
    expect(page.width).toBeCloseTo(595, 0);
    expect(page.height).toBeCloseTo(842, 0);
    const invoice = page.words.find((w) => w.text === "Invoice");
    // Drawn at x 72, baseline y 100 (from the top), 14 pt.
    expect(invoice?.box[0]).toBeGreaterThan(70);
    expect(invoice?.box[0]).toBeLessThan(76);
    expect(invoice?.box[3]).toBeGreaterThan(97);
    expect(invoice?.box[3]).toBeLessThan(104);
    expect(invoice?.confidence).toBeGreaterThan(0.8);
    expect(new Set(page.words.map((w) => w.line)).size).toBe(3);
  });

  it.each([90, 180, 270])("stands a scan turned %i° upright before reading it", async (turn) => {
    const page = await read(await scanOf(await source(), { dpi: 150, turn }));
    expect(textOf(page)).toBe(LINES.join(" "));
    expect((page.rotation + turn) % 360).toBe(0);
    // The upright page is portrait again.
    expect(page.height).toBeGreaterThan(page.width);
  });

  it("levels the lines of a slightly skewed scan", async () => {
    const page = await read(await scanOf(await source(), { dpi: 200, skew: 2 }));
    expect(textOf(page)).toBe(LINES.join(" "));
    expect(Math.abs(page.skew)).toBeGreaterThan(1.5);
    expect(Math.abs(page.skew)).toBeLessThan(2.5);
    // After deskewing, the words of the long line without descenders share their baseline within 2 pt (the scan drifts by about 10 pt along it).
    const line = page.words.find((w) => w.text === "quick")?.line;
    const first = page.words.filter((w) => w.line === line && !/[gjpqy]/.test(w.text));
    expect(first.map((w) => w.text)).toEqual(["The", "brown", "fox", "over", "the"]);
    const bottoms = first.map((w) => w.box[3]);
    expect(Math.max(...bottoms) - Math.min(...bottoms)).toBeLessThan(2);
  });

  // The OCR Worker runs this engine code in its own isolate (src/ocr-worker.ts); here it runs in the test's isolate.
  it("registers its heap, and gives an idle instance back when the isolate needs memory", async () => {
    const local = async () => {
      const pdf = await scanOf(await source(), { dpi: 100 });
      const read = await withPdf(pdf, async (doc, mupdf) => recognizeGray(renderGray(mupdf, doc, 0, 150, 18_000_000)));
      return read.words.map((w) => w.text).join(" ");
    };
    await local();
    expect(heapReport().ocr).toBe(ocrHeapBytes());
    expect(ocrHeapBytes()).toBeGreaterThan(0);
    const before = ocrInstanceStats().released_idle;
    expect(releaseIdleHeaps(0)).toContain("ocr");
    expect(ocrHeapBytes()).toBe(0);
    expect(ocrInstanceStats().released_idle).toBe(before + 1);
    // The next page starts a fresh instance.
    expect(await local()).toContain("Invoice");
  });

  it("cuts a tall image into bands at rows without ink", () => {
    const [width, height] = [100, 1000];
    const data = new Uint8Array(width * height).fill(255);
    // Ink everywhere but rows 390-409 and 790-809.
    for (let y = 0; y < height; y++) if (!((y >= 390 && y < 410) || (y >= 790 && y < 810))) data.fill(0, y * width, y * width + 10);
    const cut = bands({ data, width, height }, 45_000);
    expect(cut.map((b) => b.top)).toEqual([0, expect.any(Number), expect.any(Number)]);
    expect(cut[1].top).toBeGreaterThanOrEqual(390);
    expect(cut[1].top).toBeLessThan(410);
    expect(cut[2].top).toBeGreaterThanOrEqual(790);
    expect(cut.reduce((n, b) => n + b.image.height, 0)).toBe(height);
  });
});
