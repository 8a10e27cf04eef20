import { describe, expect, it } from "vitest";
import { docxHtmlToMarkdown } from "../../src/engines/convert/docx-markdown";
import { markPageBreaks, PAGE_BREAK_RUN } from "../../src/engines/docx/page-breaks";
import { FALLBACK_SIZES, readDocxStyles, textSizes } from "../../src/engines/docx/styles";

// The pure parts behind issue #32's DOCX fixes; the HTTP tests are
// test/tools/convert/docx-markdown.test.ts and docx-pdf-pages.test.ts.

const style = (id: string, inner: string, extra = "") => `<w:style w:type="paragraph"${extra} w:styleId="${id}"><w:name w:val="${id}"/>${inner}</w:style>`;
const p = (pPr: string, text: string) => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}<w:r><w:t>${text}</w:t></w:r></w:p>`;

describe("DOCX styles and page breaks", () => {
  const styles = readDocxStyles(
    `<w:styles><w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="20"/></w:rPr></w:rPrDefault></w:docDefaults>` +
      style("Normal", "", ' w:default="1"') +
      style("Heading1", '<w:basedOn w:val="Normal"/><w:pPr><w:pageBreakBefore/></w:pPr><w:rPr><w:sz w:val="40"/></w:rPr>') +
      style("Quiet", '<w:basedOn w:val="Heading1"/><w:pPr><w:pageBreakBefore w:val="false"/></w:pPr>') +
      style("Loop", '<w:basedOn w:val="Loop"/>') +
      "</w:styles>",
  );

  it("sizes: the body from w:docDefaults when Normal states none, headings through w:basedOn, fallbacks elsewhere", () => {
    const sizes = textSizes(styles);
    expect(sizes.body).toBe(10);
    expect(sizes.headings[0]).toBe(20);
    expect(sizes.headings.slice(1)).toEqual(FALLBACK_SIZES.headings.slice(1));
    expect(textSizes(readDocxStyles(undefined))).toEqual({ body: FALLBACK_SIZES.body, headings: [...FALLBACK_SIZES.headings] });
  });

  it("page breaks: by style (and turned off by a style based on it), by the paragraph, not inside tables; section ends start a page unless continuous", () => {
    const body = [
      p('<w:pStyle w:val="Heading1"/>', "styled"),
      p('<w:pStyle w:val="Quiet"/>', "quiet"),
      p('<w:pStyle w:val="Heading1"/><w:pageBreakBefore w:val="0"/>', "off"),
      p("<w:pageBreakBefore/><w:pPrChange><w:pPr></w:pPr></w:pPrChange>", "tracked"),
      `<w:tbl><w:tr><w:tc>${p("<w:pageBreakBefore/>", "in-table")}</w:tc></w:tr></w:tbl>`,
      p('<w:sectPr><w:type w:val="continuous"/></w:sectPr>', "continuous-end"),
      p("", "same-page"),
      p('<w:sectPr><w:headerReference w:type="default" r:id="rId9"/><w:pgSz w:w="100" w:h="200"/></w:sectPr>', "section-end"),
      p('<w:pStyle w:val="Loop"/>', "next-section"),
    ].join("");
    const out = markPageBreaks(`<w:body>${body}</w:body>`, styles);
    // The runs land right after each paragraph's properties: before "styled", "tracked" and "next-section".
    expect(out).toContain(`<w:pStyle w:val="Heading1"/></w:pPr>${PAGE_BREAK_RUN}<w:r><w:t>styled`);
    expect(out).toContain(`</w:pPrChange></w:pPr>${PAGE_BREAK_RUN}<w:r><w:t>tracked`);
    expect(out).toContain(`<w:pStyle w:val="Loop"/></w:pPr>${PAGE_BREAK_RUN}<w:r><w:t>next-section`);
    expect(out.split(PAGE_BREAK_RUN)).toHaveLength(4);
    // A table after a section's end gets a page-break paragraph before it.
    const table = markPageBreaks(`${p("<w:sectPr/>", "end")}<w:tbl><w:tr><w:tc>${p("", "cell")}</w:tc></w:tr></w:tbl>`, styles);
    expect(table).toContain(`</w:p><w:p>${PAGE_BREAK_RUN}</w:p><w:tbl>`);
  });
});

describe("DOCX HTML → Markdown", () => {
  it("merged cells leave empty cells; nested lists indent to their parent's text; emphasis hugs its words", () => {
    const html =
      '<table><tr><td colspan="2"><p>wide</p></td><td rowspan="2"><p>tall</p></td></tr><tr><td><p>a</p></td><td><p>b</p><p>c</p></td></tr></table>' +
      "<ol><li>one<ul><li>inner</li></ul></li><li>two</li></ol>" +
      "<p>x<strong> bold </strong>y <em></em>z</p>";
    expect(docxHtmlToMarkdown(html)).toBe(
      ["| wide |  | tall |", "| --- | --- | --- |", "| a | b<br>c |  |", "", "1. one", "   - inner", "2. two", "", "x **bold** y z", ""].join("\n"),
    );
  });

  it("links, pictures, notes' anchors and escapes", () => {
    const html =
      '<p>See <a href="https://example.com/a b">the site</a> <img src="data:image/png;base64,AAAA" alt="[logo]" /></p>' +
      '<p>Note<sup><a href="#footnote-1" id="footnote-ref-1">[1]</a></sup> &amp; 3 &lt; 4</p>' +
      '<ol><li id="footnote-1"><p>The note. <a href="#footnote-ref-1">↑</a></p></li></ol>' +
      "<p>- not a list, *not emphasis*</p>";
    expect(docxHtmlToMarkdown(html).split("\n\n")).toEqual([
      "See [the site](<https://example.com/a b>) ![\\[logo\\]](data:image/png;base64,AAAA)",
      'Note<sup><a id="footnote-ref-1"></a>[\\[1\\]](#footnote-1)</sup> & 3 \\< 4',
      '1. <a id="footnote-1"></a>The note. [↑](#footnote-ref-1)',
      "\\- not a list, \\*not emphasis\\*\n",
    ]);
  });
});
