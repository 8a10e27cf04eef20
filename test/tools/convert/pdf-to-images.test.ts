import { describe, expect, it } from "vitest";
import { fixturePdf, textPdf } from "../../support/pdf.mjs";
import { pageTexts } from "../../support/pdf-text";
import { unzip } from "../../support/pdf-read";
import { converted, isJpeg, isPng, jpegSize, pngSize } from "./support";

// A4 at 150 dpi: 595.28 x 841.89 pt → 1240 x 1754 px.
const A4_150: [number, number] = [1240, 1754];

describe("Convert document: PDF → PNG / JPG (mupdf-render) and PDF → TXT (mupdf-text)", () => {
  it("a one-page PDF gives one PNG at 150 dpi, quality 1.0 (lossless)", async () => {
    const pdf = await fixturePdf([{ size: [595.28, 841.89], lines: ["Hello raster"] }]);
    const { body, out } = await converted(pdf, "one.pdf", "png", "mupdf-render");
    expect(isPng(out)).toBe(true);
    expect(pngSize(out)).toEqual(A4_150);
    expect(body.quality_score).toBe(1);
    expect(body.output_file_url).toMatch(/\/one\.png$/);
  });

  it("a multi-page PDF gives a ZIP of JPEGs named by page number; quality is the first page's SSIM", async () => {
    const pdf = await fixturePdf([
      { size: [595.28, 841.89], lines: ["Page one"] },
      { size: [842, 595], lines: ["Page two, landscape"] },
      { size: [300, 300], lines: ["Page three"] },
    ]);
    const { body, out } = await converted(pdf, "three.pdf", "jpeg", "mupdf-render", { quality_preset: "premium" });
    expect(body.output_file_url).toMatch(/\/three_pages\.zip$/);
    const files = unzip(out);
    expect(Object.keys(files).sort()).toEqual(["three_page-1.jpg", "three_page-2.jpg", "three_page-3.jpg"]);
    for (const f of Object.values(files)) expect(isJpeg(f)).toBe(true);
    expect(jpegSize(files["three_page-1.jpg"])).toEqual(A4_150);
    expect(jpegSize(files["three_page-2.jpg"])).toEqual([1754, 1240]);
    expect(jpegSize(files["three_page-3.jpg"])).toEqual([625, 625]);
    // SSIM of a JPEG of black text on white at quality 92: near 1, never above.
    expect(body.quality_score).toBeGreaterThan(0.95);
    expect(body.quality_score).toBeLessThanOrEqual(1);
  });

  it("huge pages are drawn smaller, within the pixel budget", async () => {
    const pdf = await fixturePdf([{ size: [5000, 5000], lines: ["Poster"] }]);
    const { out } = await converted(pdf, "poster.pdf", "png", "mupdf-render");
    const [w, h] = pngSize(out);
    expect(w * h).toBeLessThanOrEqual(8_000_000);
    expect(w).toBeGreaterThan(2000);
  });

  it("PDF → TXT keeps every page's text, pages separated by form feeds", async () => {
    const pdf = await textPdf(3);
    const { body, out } = await converted(pdf, "text.pdf", "txt", "mupdf-text");
    const text = new TextDecoder().decode(out);
    const pages = text.split("\f");
    expect(pages).toHaveLength(3);
    const truth = await pageTexts(pdf);
    pages.forEach((p, i) => expect(p.replace(/\s+/g, " ").trim()).toBe(truth[i].replace(/\s+/g, " ").trim()));
    expect(body.quality_score).toBe(1);
    expect(body.output_file_url).toMatch(/\/text\.txt$/);
  });
});
