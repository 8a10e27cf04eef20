import { describe, expect, it } from "vitest";
import { corpusFile, corpusList, corpusText, itWithCorpus } from "../../support/corpus";
import { simpleDocx } from "../../support/pdf.mjs";
import { converted } from "./support";

// DOCX → TXT (mammoth-text) and DOCX → Markdown (mammoth-markdown). The
// DOCX → PDF road needs the browser engine: docx-pdf.test.ts.

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe("Convert document: DOCX → TXT and Markdown", () => {
  it("DOCX → TXT: every paragraph, list item and cell as a line", async () => {
    const { bytes, lines } = await simpleDocx();
    const { body, out } = await converted(bytes, "plan.docx", "txt", "mammoth-text");
    expect(body.metadata.source_format).toBe("docx");
    const got = text(out)
      .split("\n")
      .map((l) => l.trim());
    for (const l of lines) expect(got).toContain(l);
    expect(body.quality_score).toBeGreaterThanOrEqual(0.99);
  });

  it("DOCX → Markdown: heading, emphasis and list", async () => {
    const { bytes } = await simpleDocx();
    const { body, out } = await converted(bytes, "plan.docx", "markdown", "mammoth-markdown");
    const md = text(out);
    expect(md).toMatch(/^# Project Plan/m);
    expect(md).toContain("**bold steps**");
    expect(md).toContain("*italic notes*");
    expect(md).toMatch(/^- Gather requirements/m);
    expect(body.output_file_url).toMatch(/\/plan\.md$/);
    expect(body.quality_score).toBeGreaterThanOrEqual(0.9);
  });

  itWithCorpus("office corpus: every word of each *.expected.md is in the TXT output", async () => {
    const files = (await corpusList("office/docx")).filter((f) => f.endsWith(".docx"));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const { out } = await converted(await corpusFile(`office/docx/${f}`), f, "txt", "mammoth-text");
      const got = new Set(
        text(out)
          .toLowerCase()
          .match(/[\p{L}\p{N}]+/gu),
      );
      // The truth marks pictures with <!-- image --> comments: not text of the document.
      const truth = (await corpusText(`office/docx/${f}.expected.md`)).replace(/<!--[\s\S]*?-->/g, " ");
      const want = truth.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      const missing = want.filter((w) => !got.has(w));
      expect(missing.length / Math.max(1, want.length), `${f}: ${missing.slice(0, 10).join(" ")}`).toBeLessThanOrEqual(0.05);
    }
  });

  itWithCorpus("office corpus: TXT and Markdown keep ≥ 0.95 of the document's words; pictures ride in the Markdown as data URIs", async () => {
    const files = (await corpusList("office/docx")).filter((f) => f.endsWith(".docx"));
    for (const f of files) {
      const bytes = await corpusFile(`office/docx/${f}`);
      const txt = await converted(bytes, f, "txt", "mammoth-text");
      const md = await converted(bytes, f, "md", "mammoth-markdown");
      expect(txt.body.quality_score, f).toBeGreaterThanOrEqual(0.95);
      expect(md.body.quality_score, f).toBeGreaterThanOrEqual(0.95);
      if (f === "word_sample.docx") expect(text(md.out)).toMatch(/!\[[^\]]*\]\(data:image\/png;base64,/);
    }
  });
});
