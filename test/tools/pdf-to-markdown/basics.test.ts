import { describe, expect, it } from "vitest";
import { countHeadings, countWords } from "../../../src/engines/layout/markdown";
import { expectMetering } from "../../support/metering";
import { file } from "../../support/http";
import { concatPdfs, corruptPdf, layoutPdf, scannedPdf } from "../../support/pdf.mjs";
import { PATH, toMarkdown } from "./client";

const REPORT = [
  [
    { text: "Field Notes", x: 72, y: 80, size: 22, font: "bold" as const },
    { text: "1 Method", x: 72, y: 130, size: 15, font: "bold" as const },
    { text: "We walked the ridge at dawn and counted every bird we could hear.", x: 72, y: 160 },
    { text: "• Sparrows", x: 72, y: 190 },
    { text: "• Blackbirds", x: 72, y: 206 },
    { rule: [72, 240, 372, 240] as [number, number, number, number] },
    { rule: [72, 260, 372, 260] as [number, number, number, number] },
    { rule: [72, 280, 372, 280] as [number, number, number, number] },
    { rule: [72, 240, 72, 280] as [number, number, number, number] },
    { rule: [222, 240, 222, 280] as [number, number, number, number] },
    { rule: [372, 240, 372, 280] as [number, number, number, number] },
    { text: "Species", x: 76, y: 254 },
    { text: "Count", x: 226, y: 254 },
    { text: "Sparrow", x: 76, y: 274 },
    { text: "14", x: 226, y: 274 },
  ],
  [
    { text: "2 Results", x: 72, y: 80, size: 15, font: "bold" as const },
    { text: "The counts were higher than last year on every transect.", x: 72, y: 110 },
  ],
];

describe("PDF to Markdown: the answer", () => {
  it("answers every field, and pages, word_count and headings agree with the Markdown", async () => {
    const body = await toMarkdown(await layoutPdf(REPORT));
    expect(body).toMatchObject({ success: true, engine: "layout", pages: 2, credits_charged: 40, pages_without_text: [] });
    expect(body.markdown).toContain("# Field Notes\n");
    expect(body.markdown).toMatch(/^## 1 Method$/m);
    expect(body.markdown).toContain("- Sparrows\n- Blackbirds");
    expect(body.markdown).toContain("| Species | Count |\n| --- | --- |\n| Sparrow | 14 |");
    expect(body.headings).toBe(countHeadings(body.markdown));
    expect(body.headings).toBe(3);
    expect(body.word_count).toBe(countWords(body.markdown));
    // Every word of the page, none of the markup.
    expect(body.word_count).toBe(2 + 2 + 13 + 2 + 4 + 2 + 10);
  });

  it("charges 40 credits, refunds a failure, and is a login tool (401 anonymous)", async () => {
    const pdf = await layoutPdf(REPORT);
    await expectMetering(
      PATH,
      async () => ({ file: file(pdf, "report.pdf") }),
      async () => ({ file: file(corruptPdf(), "broken.pdf") }),
      40,
      "401",
    );
  });

  it("engine=auto is the default and says so", async () => {
    const body = await toMarkdown(await layoutPdf(REPORT), { engine: "auto" });
    expect(body.engine).toBe("layout");
  });
});

describe("PDF to Markdown: images and scanned pages", () => {
  it("writes figures as image references, in reading order, without counting them as words", async () => {
    const pdf = await layoutPdf([
      [
        { text: "Text above the figure on this page.", x: 72, y: 100 },
        { image: [72, 130, 200, 120] },
        { text: "Text below the figure on this page.", x: 72, y: 290 },
      ],
    ]);
    const body = await toMarkdown(pdf);
    expect(body.markdown).toBe("Text above the figure on this page.\n\n![](#page-1-image-1)\n\nText below the figure on this page.\n");
    expect(body.word_count).toBe(14);
  });

  it("keeps the text pages of a document with a scanned page, reads the scan by OCR and lists it in pages_without_text", async () => {
    const text = await layoutPdf([[{ text: "The typed first page of the file.", x: 72, y: 100 }]]);
    const body = await toMarkdown(await concatPdfs(text, await scannedPdf(1, 100), text));
    expect(body).toMatchObject({ engine: "ocr", pages: 3, pages_without_text: [2] });
    expect(body.markdown.match(/The typed first page of the file\./g)).toHaveLength(2);
    // scannedPdf's page reads "Scanned report page 1" in 18 pt: larger than the body, so a heading.
    expect(body.markdown).toMatch(/The typed first page of the file\.\n\n#+ Scanned report page 1\n\nThe typed first page/);
  });
});
