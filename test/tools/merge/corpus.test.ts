import { expect, it } from "vitest";
import { corpusFile, corpusList, describeWithCorpus } from "../../support/corpus";
import { download, pdfFile, postForm } from "../../support/http";
import { readPdf, unzip } from "../../support/pdf-read";

// Real-world files nobody on this project wrote (../shared/corpus).

describeWithCorpus("merge and split on corpus files", () => {
  it("merges pdf.js test files in order and keeps their nested outlines under the file bookmark", async () => {
    const three = await corpusFile("pdfjs/plain/doc_1_3_pages.pdf");
    const outlined = await corpusFile("pdfjs/outline/outlines_for_editor.pdf");
    const numbered = await corpusFile("pdfjs/plain/three_pages_with_number.pdf");
    const res = await postForm("/api/v1/pdf/merge/merge", {
      files: [pdfFile(three, "doc_1_3_pages.pdf"), pdfFile(outlined, "outlines_for_editor.pdf"), pdfFile(numbered, "three_pages_with_number.pdf")],
    });
    const body = (await res.json()) as { output_url: string; pages: number };
    expect(res.status).toBe(200);
    const src = await readPdf(outlined);
    expect(body.pages).toBe(3 + src.pages + 3);
    const facts = await readPdf(await download(body.output_url));
    expect(facts.outline.map((o) => [o.title, o.page])).toEqual([
      ["doc_1_3_pages", 0],
      ["outlines_for_editor", 3],
      ["three_pages_with_number", 3 + src.pages],
    ]);
    const nested = facts.outline[1].children;
    expect(nested[0]).toEqual({ title: "Page 1 - explicit dest", page: 3 });
    expect(nested[1]).toEqual({ title: "Page 2 - named dest", page: 4 });
    // The bookmark into another file must not become a jump inside the merge.
    const remote = nested.find((n) => n.title === "Remote PDF link");
    expect(remote).toBeDefined();
    expect(remote?.page).toBeUndefined();
    expect(nested.find((n) => n.title === "External URL")?.uri).toBe("https://mozilla.org");
  });

  it("splits by top-level bookmarks of a real outline, ignoring bookmarks without a page", async () => {
    const pdf = await corpusFile("pdfjs/outline/issue3214.pdf");
    const res = await postForm("/api/v1/pdf/split/split", { file: pdfFile(pdf, "issue3214.pdf"), split_mode: "bookmarks", split_config: "{}" });
    const body = (await res.json()) as { output_url: string; pages: number };
    expect(res.status).toBe(200);
    const parts = unzip(await download(body.output_url));
    const names = Object.keys(parts).sort();
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => /^\d{2}_.+\.pdf$/.test(n))).toBe(true);
    let total = 0;
    for (const bytes of Object.values(parts)) total += (await readPdf(bytes)).pages;
    expect(total).toBe(body.pages);
  });

  it("never answers 5xx for damaged or encrypted inputs", async () => {
    const good = await corpusFile("pdfjs/plain/doc_1_3_pages.pdf");
    const files = [
      ...(await corpusList("pdfjs/broken")).map((f) => `pdfjs/broken/${f}`),
      ...(await corpusList("qpdf/encrypted")).map((f) => `qpdf/encrypted/${f}`),
      ...(await corpusList("qpdf/damaged")).map((f) => `qpdf/damaged/${f}`),
    ].filter((f) => f.endsWith(".pdf"));
    const outcomes: Record<string, number> = {};
    for (const path of files) {
      const bad = await corpusFile(path);
      const merged = await postForm("/api/v1/pdf/merge/merge", { files: [pdfFile(good, "good.pdf"), pdfFile(bad, "bad.pdf")] });
      const split = await postForm("/api/v1/pdf/split/split", { file: pdfFile(bad, "bad.pdf"), split_mode: "pages", split_config: "{}" });
      for (const res of [merged, split]) {
        expect(res.status, `${path} -> ${res.status} ${await res.clone().text()}`).toBeLessThan(500);
        outcomes[res.status] = (outcomes[res.status] ?? 0) + 1;
      }
    }
    // Both kinds of outcome occur: recovered files merge, encrypted ones are refused.
    expect(outcomes[200]).toBeGreaterThan(0);
    expect(outcomes[422]).toBeGreaterThan(0);
  }, 120_000);
});
