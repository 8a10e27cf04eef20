import { describe, expect, it } from "vitest";
import { corpusFile, corpusText, describeWithCorpus, itWithCorpus } from "../../support/corpus";
import { file, postForm, problem } from "../../support/http";
import { auth, toMarkdown } from "./client";
import { headingsFound, measure, readingOrder, tablesFound, wordRecall } from "./quality";

// Quality against ../shared/corpus/markdown ground truth, measured as
// PEERS.md measures pymupdf4llm and pdftotext, printed per file. Thresholds
// sit at or just under what the engine reaches today, so a regression fails;
// the targets (recall 0.95 on every file, every heading, every
// table) are met where the floors below say so.

const DIR = "markdown/docling";

interface Floor {
  recall: number;
  order: number;
  tables: number;
  headings: number;
}

const FILES: Record<string, Floor> = {
  "2305.03393v1-pg9": { recall: 0.95, order: 1, tables: 1, headings: 2 },
  code_and_formula: { recall: 0.99, order: 1, tables: 0, headings: 2 },
  multi_page: { recall: 0.99, order: 1, tables: 0, headings: 11 },
  // docling keeps footnotes where they stand in their column; we put them after the page body (issue 12).
  normal_4pages: { recall: 0.99, order: 0.75, tables: 1, headings: 12 },
  redp5110_sampled: { recall: 0.98, order: 0.9, tables: 4, headings: 18 },
  right_to_left_01: { recall: 0.98, order: 1, tables: 0, headings: 1 },
};

describeWithCorpus("PDF to Markdown on the docling corpus", () => {
  for (const [name, floor] of Object.entries(FILES)) {
    itWithCorpus(`${name}: recall, order, tables and headings`, async () => {
      const started = Date.now();
      const body = await toMarkdown(await corpusFile(`${DIR}/${name}.pdf`));
      const ms = Date.now() - started;
      const q = measure(await corpusText(`${DIR}/${name}.expected.md`), body.markdown);
      console.log(
        `${name.padEnd(18)} recall ${q.recall.toFixed(3)}  order ${q.order.toFixed(2)}  tables ${q.tables.found}/${q.tables.total}  headings ${q.headings.found}/${q.headings.total}  ${body.pages} p in ${ms} ms`,
      );
      expect(q.recall).toBeGreaterThanOrEqual(floor.recall);
      expect(q.order).toBeGreaterThanOrEqual(floor.order);
      expect(q.tables.found).toBeGreaterThanOrEqual(floor.tables);
      expect(q.headings.found).toBeGreaterThanOrEqual(floor.headings);
      // A heading found is at a plausible level.
      for (const level of q.headings.levels) expect(level).toBeLessThanOrEqual(5);
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
  });
});
