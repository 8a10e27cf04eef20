import { describe, expect, it } from "vitest";
import { layoutPdf } from "../../support/pdf.mjs";
import { toMarkdown } from "./client";

// Margin line numbers (a brief's, a manuscript's) are page furniture: they
// never reach the Markdown, break no paragraph and make no table column
// (docs/tools/pdf-to-markdown.md). The generated family "line-numbered"
// measures the rule on Chromium's pages; this is the rule through the API
// on pages built by hand, with a table's own row numbers beside it.

const SENTENCES = [
  "The plaintiff filed the complaint in the district court on the first of May,",
  "and the defendant answered within the time the rules of procedure allow.",
  "The court then heard both parties on the motion for summary judgement",
  "and took the matter under advisement until the following session.",
  "No party objected to the schedule the court set for the briefs.",
];

/**
 * Two pages of body lines numbered in the left margin: every line on page
 * 1, every fifth on page 2, counting on. Page 2's ten lines carry two
 * numbers, too few to prove a column alone: it is found where page 1's was.
 */
function brief() {
  const page = (first: number, every: number, length: number) =>
    Array.from({ length }, (_, i) => {
      const n = first + i;
      const y = 100 + i * 16;
      return [{ text: SENTENCES[i % SENTENCES.length], x: 90, y }, ...(n % every ? [] : [{ text: String(n), x: n >= 10 ? 52 : 58, y, size: 9 }])];
    }).flat();
  return layoutPdf([page(1, 1, 15), page(16, 5, 10)]);
}

describe("PDF to Markdown: margin line numbers", () => {
  it("leaves line numbers out and keeps the paragraphs whole, every line or every fifth", async () => {
    const body = await toMarkdown(await brief());
    const text = SENTENCES.join(" ");
    expect(body.markdown).not.toMatch(/\d/);
    expect(body.markdown).not.toContain("|");
    // The body lines read in order with nothing between them: five rounds of the five sentences.
    expect(body.markdown.replace(/\s+/g, " ").trim()).toBe(Array(5).fill(text).join(" "));
  });

  it("keeps a table's row numbers under their header", async () => {
    const rows = ["Alder", "Birch", "Cedar", "Douglas fir"].map((name, i) => [
      { text: String(i + 1), x: 72, y: 160 + i * 18 },
      { text: name, x: 120, y: 160 + i * 18 },
      { text: String(40 + i * 7), x: 260, y: 160 + i * 18 },
    ]);
    const pdf = await layoutPdf([
      [
        { text: "The trees counted in the survey plot, by kind.", x: 72, y: 100 },
        { text: "No.", x: 72, y: 140 },
        { text: "Tree", x: 120, y: 140 },
        { text: "Count", x: 260, y: 140 },
        ...rows.flat(),
      ],
    ]);
    const body = await toMarkdown(pdf);
    expect(body.markdown).toMatch(/^\| *No\. *\| *Tree *\| *Count *\|$/m);
    expect(body.markdown).toMatch(/^\| *4 *\| *Douglas fir *\| *61 *\|$/m);
  });
});
