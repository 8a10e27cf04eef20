import { describe, expect, it, type TestContext } from "vitest";
import { hasCorpus, corpusFile, corpusList, corpusText } from "../../support/corpus";
import { hasBrowser } from "../../support/browser";
import { download } from "../../support/http";
import { simpleDocx } from "../../support/pdf.mjs";
import { mupdfTexts } from "../../support/mupdf";
import { pdfStructure } from "../../support/pdf-read";
import { pageTexts, squash } from "../../support/pdf-text";
import { convert, type ConvertBody } from "./support";
import { PDFDocument } from "pdf-lib";

// DOCX → PDF (mammoth+chromium) and HTML → PDF (chromium) go through the
// browser engine (src/engines/browser). Where the machine has no Chromium
// (Browser Rendering offline needs one), each test says so and skips instead
// of passing; where it has one (and always under REQUIRE_CHROMIUM=1), a 503
// is a broken browser pool and fails.

async function browserPdf(ctx: TestContext, bytes: Uint8Array, name: string, engine: string): Promise<{ body: ConvertBody; pdf: Uint8Array }> {
  const { res, body } = await convert(bytes, name, "pdf");
  if (res.status === 503 && !hasBrowser) {
    console.warn(`skipped: no browser for ${engine} (${JSON.stringify(body)})`);
    ctx.skip();
  }
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.engine_used).toBe(engine);
  return { body, pdf: await download(body.output_file_url) };
}

/** pdf-lib's reader, or the test-only MuPDF where Chromium wrote a font pdf-lib cannot map (glyph 0 without ToUnicode). */
async function textOf(pdf: Uint8Array): Promise<string> {
  const pages = await pageTexts(pdf).catch(() => mupdfTexts(pdf));
  return squash(pages.join("").normalize("NFKC"));
}

/** What a line of docling's Markdown truth reads as text: markup, links and picture comments out; table rows as their cells. */
function expectedPieces(md: string): string[] {
  return md
    .replace(/<!--[\s\S]*?-->/g, "\n")
    .split("\n")
    .flatMap((line) => (line.trim().startsWith("|") ? line.split("|") : [line]))
    .map((l) =>
      l
        .replace(/^\s*(#+|[-*+]|\d+[.)])\s+/, "")
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
        .replace(/(?<!\\)[*_`]/g, "")
        .replace(/\\(.)/g, "$1")
        .trim(),
    )
    .filter((l) => l !== "" && !/^[-:\s]+$/.test(l));
}

describe("Convert document: DOCX → PDF and HTML → PDF through the browser engine", () => {
  it("DOCX → PDF keeps the text, and the page size and orientation of the document", async (ctx) => {
    const { bytes, lines } = await simpleDocx();
    const { body, pdf } = await browserPdf(ctx, bytes, "plan.docx", "mammoth+chromium");
    const doc = await PDFDocument.load(pdf);
    const page = doc.getPage(0);
    expect([Math.round(page.getWidth()), Math.round(page.getHeight())]).toEqual([792, 612]);
    const text = await textOf(pdf);
    for (const l of lines) expect(text).toContain(squash(l));
    expect(body.quality_score).toBeGreaterThanOrEqual(0.95);
  });

  // Letters and digits in order: the truth is docling's reading, which adds a dot after Word's
  // "%1.%2" labels ("1.1. Morning Walk" where Word prints "1.1 Morning Walk").
  const bare = (s: string) => (s.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? []).join("");

  it.skipIf(!hasCorpus)("office corpus: every line of each *.expected.md appears in the PDF's text", async (ctx) => {
    const files = (await corpusList("office/docx")).filter((f) => f.endsWith(".docx"));
    for (const f of files) {
      const { pdf } = await browserPdf(ctx, await corpusFile(`office/docx/${f}`), f, "mammoth+chromium");
      const text = bare(await textOf(pdf));
      const missing = expectedPieces(await corpusText(`office/docx/${f}.expected.md`)).filter((p) => !text.includes(bare(p)));
      expect(missing, f).toEqual([]);
    }
  });

  it.skipIf(!hasCorpus)("office corpus: HTML pages print their expected lines (97%; 85% for the Wikipedia page)", async (ctx) => {
    const files = (await corpusList("office/html")).filter((f) => f.endsWith(".html"));
    for (const f of files) {
      const { body, pdf } = await browserPdf(ctx, await corpusFile(`office/html/${f}`), f, "chromium");
      const text = bare(await textOf(pdf));
      const pieces = expectedPieces(await corpusText(`office/html/${f}.expected.md`));
      const missing = pieces.filter((p) => !text.includes(bare(p)));
      // wiki_duck's truth also holds the page's language links in scripts the local Chromium has no font for
      // (Amharic, Syriac...) and navigation a print hides; the small pages must print whole.
      const bar = f === "wiki_duck.html" ? 0.15 : 0.03;
      expect(missing.length / pieces.length, `${f}: ${missing.slice(0, 5).join(" | ")}`).toBeLessThanOrEqual(bar);
      expect(body.quality_score, f).toBeGreaterThanOrEqual(0.9);
    }
  });

  it("HTML → PDF prints the markup on A4 by default", async (ctx) => {
    const html = "<!DOCTYPE html><html><body><h1>Invoice 42</h1><p>Total due: <b>1,234.00 EUR</b></p></body></html>";
    const { body, pdf } = await browserPdf(ctx, new TextEncoder().encode(html), "invoice.html", "chromium");
    expect((await pdfStructure(pdf)).pages).toBe(1);
    const text = await textOf(pdf);
    expect(text).toContain(squash("Invoice 42"));
    expect(text).toContain(squash("Total due: 1,234.00 EUR"));
    expect(body.quality_score).toBeGreaterThanOrEqual(0.95);
  });
});
