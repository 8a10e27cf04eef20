import { describe, expect, it } from "vitest";
import { corpusFile, corpusText, describeWithCorpus, itWithCorpus } from "../../support/corpus";
import { file, postForm, problem } from "../../support/http";
import { auth, toMarkdown } from "./client";
import { headingJumps, headingsFound, measure, readingOrder, tablesAsCode, tablesFound, wordRecall } from "./quality";

// Quality against ../shared/corpus/markdown ground truth, measured as
// PEERS.md measures pymupdf4llm and pdftotext, printed per file. The
// issue's targets hold on every file: word recall 0.95 or more, every truth
// heading set as a heading in an outline that never skips a level (the
// truth, docling's, writes every heading at "##", so levels are judged on
// our outline: quality.ts), every truth table back as a pipe table. One
// exception, by choice: docling tables redp5110's SQL listing
// ("SELECT | function_id, ..."), which we give as a fenced code block, a
// listing as marker or a reader writes it; it is counted as kept as code.

const DIR = "markdown/docling";

interface Floor {
  recall: number;
  order: number;
  /** Truth tables we give as code listings instead (see above). */
  asCode: number;
}

const FILES: Record<string, Floor> = {
  "2305.03393v1-pg9": { recall: 0.95, order: 1, asCode: 0 },
  code_and_formula: { recall: 0.99, order: 1, asCode: 0 },
  multi_page: { recall: 0.99, order: 1, asCode: 0 },
  // docling keeps footnotes where they stand in their column; we put them after the page body (issue 12).
  normal_4pages: { recall: 0.99, order: 0.75, asCode: 0 },
  redp5110_sampled: { recall: 0.98, order: 0.9, asCode: 1 },
  right_to_left_01: { recall: 0.98, order: 1, asCode: 0 },
};

describeWithCorpus("PDF to Markdown on the docling corpus", () => {
  for (const [name, floor] of Object.entries(FILES)) {
    itWithCorpus(`${name}: recall, order, tables and headings`, async () => {
      const started = Date.now();
      const body = await toMarkdown(await corpusFile(`${DIR}/${name}.pdf`));
      const ms = Date.now() - started;
      const q = measure(await corpusText(`${DIR}/${name}.expected.md`), body.markdown);
      console.log(
        `${name.padEnd(18)} recall ${q.recall.toFixed(3)}  order ${q.order.toFixed(2)}  tables ${q.tables.found}/${q.tables.total}${q.tables.asCode ? ` (+${q.tables.asCode} as code)` : ""}  headings ${q.headings.found}/${q.headings.total}  level jumps ${q.jumps}  ${body.pages} p in ${ms} ms`,
      );
      expect(q.recall).toBeGreaterThanOrEqual(floor.recall);
      expect(q.order).toBeGreaterThanOrEqual(floor.order);
      expect(q.tables.found + q.tables.asCode).toBe(q.tables.total);
      expect(q.tables.asCode).toBeLessThanOrEqual(floor.asCode);
      expect(q.headings.found).toBe(q.headings.total);
      // Plausible levels: an outline that opens at "#" or "##" and never skips a level going down.
      expect(q.jumps).toBe(0);
    });
  }

  itWithCorpus("the password-protected sample is 422 password_protected", async () => {
    const res = await postForm("/api/v1/pdf/to-markdown", { file: file(await corpusFile(`${DIR}/2206.01062_pg3_password.pdf`), "locked.pdf") }, await auth());
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("password_protected");
  });
});

describe("PDF to Markdown quality measures", () => {
  // The scorer itself, on hand-made Markdown, so a broken scorer cannot pass files.
  const truth = "## Intro\n\nOne two three four five six seven eight nine.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n";
  it("scores recall, order, tables and headings", () => {
    expect(wordRecall(truth, "intro one two three four five six seven eight nine a b 1 2")).toBe(1);
    expect(readingOrder(truth, "One two three four five six seven eight nine.")).toBe(1);
    expect(readingOrder(truth, "nine eight seven six five four three two one")).toBe(0);
    expect(tablesFound(truth, "| a | b |\n| --- | --- |\n| 1 | 2 |")).toEqual({ found: 1, total: 1 });
    expect(tablesFound(truth, "a b 1 2")).toEqual({ found: 0, total: 1 });
    expect(headingsFound(truth, "# Intro")).toMatchObject({ found: 1, total: 1 });
    expect(headingsFound(truth, "Intro")).toMatchObject({ found: 0, total: 1 });
  });

  it("matches headings as docling writes them, and judges our outline", () => {
    // docling puts a margin number after its title, runs a title into the next sentence, splits one over two lines.
    expect(headingsFound("## Method 2\n", "## 2 Method")).toMatchObject({ found: 1 });
    expect(headingsFound("## (3) Rules of law Under the act the\n", "### (3) Rules of law")).toMatchObject({ found: 1 });
    expect(headingsFound("## 5\n\n## Closing\n", "## 5 Closing")).toMatchObject({ found: 2 });
    expect(headingsFound("## Closing words\n", "## Closing")).toMatchObject({ found: 0 });
    expect(headingsFound("## Method 2\n", "## Method 3")).toMatchObject({ found: 0 });
    expect(headingJumps("# A\n\n## B\n\n### C\n\n## D")).toBe(0);
    expect(headingJumps("# A\n\n### B")).toBe(1);
    expect(headingJumps("### A")).toBe(1);
  });

  it("counts a truth table kept whole in a code block apart", () => {
    const listing = "| SELECT | name, id |\n| - | - |\n| FROM | users |\n";
    const code = "```\nSELECT name, id\nFROM   users\n```";
    expect(tablesFound(listing, code)).toEqual({ found: 0, total: 1 });
    expect(tablesAsCode(listing, code)).toBe(1);
    expect(tablesAsCode(listing, "```\nSELECT name\n```")).toBe(0);
    expect(tablesAsCode(listing, "SELECT name, id FROM users")).toBe(0);
  });
});
