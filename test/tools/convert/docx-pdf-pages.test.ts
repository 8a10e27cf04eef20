import { PDFDocument } from "pdf-lib";
import { describe, expect, it, type TestContext } from "vitest";
import { download } from "../../support/http";
import { mupdfTexts, withMupdf } from "../../support/mupdf";
import { pageTexts, squash } from "../../support/pdf-text";
import { convert } from "./support";
import { docxPackage, pageBreak, para, section, styled, stylesXml } from "./docx-xml";

// DOCX → PDF (issue #32): Word's explicit page breaks (a page-break run,
// w:pageBreakBefore on the paragraph or its style, a section's end), the
// section's page size and orientation, and the styles' own type sizes. The
// DOCX is written here by hand (docx-xml.ts): its XML is the truth. The PDF,
// printed by Chromium, is read back by pdf-lib (pages, sizes), the suite's
// pdf-lib text reader per page, and the test-only MuPDF for type sizes (no
// reader of the suite exposes them; MuPDF's structured text gives each
// character's size).

async function docxPdf(ctx: TestContext, bytes: Uint8Array, name: string): Promise<Uint8Array> {
  const { res, body } = await convert(bytes, name, "pdf");
  if (res.status === 503) {
    console.warn(`skipped: no browser for mammoth+chromium (${JSON.stringify(body)})`);
    ctx.skip();
  }
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.engine_used).toBe("mammoth+chromium");
  return download(body.output_file_url);
}

/** Each page's text, whitespace squeezed out: pdf-lib's reader, or MuPDF's where Chromium wrote a font pdf-lib cannot map. */
async function textPerPage(pdf: Uint8Array): Promise<string[]> {
  const pages = await pageTexts(pdf).catch(() => mupdfTexts(pdf));
  return pages.map((p) => squash(p.normalize("NFKC")));
}

/** Every text line of the PDF with the largest character size on it, points (MuPDF structured text). */
function lineSizes(pdf: Uint8Array): Promise<{ text: string; size: number }[]> {
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(pdf, "application/pdf");
    const lines: { text: string; size: number }[] = [];
    try {
      for (let i = 0; i < doc.countPages(); i++) {
        const page = doc.loadPage(i);
        const st = page.toStructuredText("preserve-whitespace");
        st.walk({
          beginLine() {
            lines.push({ text: "", size: 0 });
          },
          onChar(c, _origin, _font, size) {
            const line = lines[lines.length - 1];
            line.text += c;
            if (c.trim()) line.size = Math.max(line.size, size);
          },
        });
        st.destroy();
        page.destroy();
      }
    } finally {
      doc.destroy();
    }
    return lines;
  });
}

async function sizeOf(pdf: Uint8Array, text: string): Promise<number> {
  const line = (await lineSizes(pdf)).find((l) => squash(l.text).includes(squash(text)));
  expect(line, `no line reads "${text}"`).toBeDefined();
  return line?.size ?? 0;
}

const pageSizes = async (pdf: Uint8Array) =>
  (await PDFDocument.load(pdf))
    .getPages()
    .map((p) => p.getSize())
    .map(({ width, height }) => [Math.round(width), Math.round(height)]);

// A4 landscape as Word writes it: w and h in twentieths of a point.
const A4_LANDSCAPE = section(16838, 11906, "landscape");

describe("Convert document: DOCX → PDF keeps Word's pages and type sizes (issue #32)", () => {
  it("a page-break run, w:pageBreakBefore (direct and by style) and a section's end each start a page; A4 landscape; sizes as styles.xml says", async (ctx) => {
    // Half-points: body 12 pt, Heading 1 24 pt, Heading 2 18 pt; "Chapter" starts a page by its style.
    const styles = stylesXml(
      [
        { id: "Normal", name: "Normal", isDefault: true, size: 24 },
        { id: "Heading1", name: "heading 1", basedOn: "Normal", size: 48 },
        { id: "Heading2", name: "heading 2", basedOn: "Normal", size: 36 },
        { id: "Chapter", name: "Chapter Start", basedOn: "Normal", pPr: "<w:pageBreakBefore/>" },
      ],
      22,
    );
    const pages = [
      ["Annual Summary", "The first page holds the opening words."],
      ["Second Page Heading", "The second page follows a page break run."],
      ["The third page starts by its own paragraph property."],
      ["The fourth page starts by its paragraph style."],
      ["The fifth page follows the end of a section."],
    ];
    const body = [
      styled("Heading1", pages[0][0]),
      para(pages[0][1]),
      para([pageBreak]),
      styled("Heading2", pages[1][0]),
      para(pages[1][1]),
      para(pages[2][0], "<w:pageBreakBefore/>"),
      styled("Chapter", pages[3][0]),
      // The section ends with this paragraph (next page is w:sectPr's default type).
      para("Last words of the first section.", '<w:sectPr><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/></w:sectPr>'),
      para(pages[4][0]),
      A4_LANDSCAPE,
    ].join("");
    const pdf = await docxPdf(ctx, docxPackage(body, { styles }), "breaks.docx");

    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(pages.length);
    expect(await pageSizes(pdf)).toEqual(pages.map(() => [842, 595]));

    const texts = await textPerPage(pdf);
    pages.forEach((lines, i) => {
      for (const l of lines) expect(texts[i], `page ${i + 1}`).toContain(squash(l));
      // ...and on no other page.
      for (const l of lines) texts.forEach((t, j) => j !== i && expect(t, `page ${j + 1}`).not.toContain(squash(l)));
    });

    const bodySize = await sizeOf(pdf, pages[0][1]);
    expect(bodySize).toBeCloseTo(12, 0);
    expect((await sizeOf(pdf, pages[0][0])) / bodySize).toBeCloseTo(24 / 12, 1);
    expect((await sizeOf(pdf, pages[1][0])) / bodySize).toBeCloseTo(18 / 12, 1);
  });

  it("without styles.xml: headings well above the body (Heading 2 ≥ 1.25×), and w:orient landscape turns a portrait-sized page", async (ctx) => {
    const body = [
      styled("Heading1", "Plain Title"),
      para("Body words without any styles part."),
      styled("Heading2", "Plain Subheading"),
      para("More body words."),
    ];
    // w and h as for portrait, orient says landscape: Word prints it landscape.
    const pdf = await docxPdf(ctx, docxPackage(body.join("") + section(11906, 16838, "landscape")), "plain.docx");
    expect(await pageSizes(pdf)).toEqual([[842, 595]]);
    const bodySize = await sizeOf(pdf, "Body words without any styles part.");
    const h1 = await sizeOf(pdf, "Plain Title");
    const h2 = await sizeOf(pdf, "Plain Subheading");
    expect(h2 / bodySize).toBeGreaterThanOrEqual(1.25);
    expect(h1).toBeGreaterThan(h2);
  });
});
