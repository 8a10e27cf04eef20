import { describe, expect, it } from "vitest";
import { concatPdfs, layoutPdf, scanOf } from "../../support/pdf.mjs";
import { converted, docxText, documentXml } from "./support";

// PDF → DOCX of scans (docs/tools/ocr.md): the scan is read by OCR inside
// the Worker and written as text; `engine_used` says so.

const LETTER = ["Dear customer,", "Thank you for your order of the garden chairs.", "They will be delivered on Monday morning.", "Kind regards, the shop team"];
const letter = () => layoutPdf([LETTER.map((text, i) => ({ text, x: 72, y: 100 + i * 30, size: 12 }))]);

describe("Convert document: PDF → DOCX of scans (ocr-docx)", () => {
  it("writes a scan's text as paragraphs, without the scan's picture", async () => {
    const { body, out } = await converted(await scanOf(await letter(), { dpi: 200 }), "letter.pdf", "docx", "ocr-docx");
    const xml = documentXml(out);
    const text = docxText(xml);
    for (const line of LETTER) expect(text).toContain(line);
    expect(xml).not.toMatch(/<wp:inline/);
    // quality_score: the text kept, weighed by OCR's confidence on the scan.
    expect(body.quality_score).toBeGreaterThan(0.8);
  });

  it("keeps text pages as they are in a document with a scan, in page order", async () => {
    const typed = await layoutPdf([[{ text: "A typed cover page comes first.", x: 72, y: 100, size: 12 }]]);
    const { out } = await converted(await concatPdfs(typed, await scanOf(await letter(), { dpi: 200 })), "mixed.pdf", "docx", "ocr-docx");
    const text = docxText(documentXml(out));
    expect(text.indexOf("A typed cover page comes first.")).toBeGreaterThanOrEqual(0);
    expect(text.indexOf("Thank you for your order of the garden chairs.")).toBeGreaterThan(text.indexOf("A typed cover page comes first."));
  });
});
