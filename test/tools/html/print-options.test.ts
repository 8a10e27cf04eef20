import { expect } from "vitest";
import { env } from "cloudflare:workers";
import { renderHtmlToPdf } from "../../../src/engines/browser";
import { ensureOutline } from "../../../src/engines/browser/outline";
import { withMupdfCall } from "../../../src/engines/mupdf/core/loader";
import { describeWithBrowser, itWithBrowser } from "../../support/browser";
import { readPdf } from "../../support/pdf-read";
import { pageTexts, squash } from "../../support/pdf-text";
import { catalogHas, expectPageSize, mm, pageSize, paragraphs, toPdf } from "./helpers";

describeWithBrowser("HTML to PDF: pagination, running headers and footers", () => {
  itWithBrowser("one_long_page prints one page as tall as the content, whatever page_format says", async () => {
    const html = `<body style="margin:0"><div style="height:3000px;background:#eee">tall</div></body>`;
    const { body, doc } = await toPdf({ html, one_long_page: "true", margin: "none", screen_width: "800", page_format: "A5" });
    expect(body.meta.pages).toBe(1);
    expect(body.meta.page_format).toBe("one_long_page");
    const [w, h] = pageSize(doc);
    // 800 CSS px wide and 3000 px tall at 0.75 pt a px.
    expect(Math.abs(w - 600)).toBeLessThan(2);
    expect(Math.abs(h - 2250)).toBeLessThan(3);
  });

  itWithBrowser("one_long_page measures after web fonts and late layout", async () => {
    const html = `<body style="margin:0"><div id="grow" style="height:100px"></div>
      <script>document.getElementById("grow").style.height = "2000px";</script></body>`;
    const { doc } = await toPdf({ html, one_long_page: "true", margin: "none", screen_width: "400" });
    expect(doc.getPageCount()).toBe(1);
    expect(Math.abs(pageSize(doc)[1] - 1500)).toBeLessThan(3);
  });

  itWithBrowser("page_numbers prints 'Page X of Y' on every page", async () => {
    const { body, pdf } = await toPdf({ html: paragraphs(40), page_numbers: "true" });
    expect(body.meta.pages).toBeGreaterThan(1);
    const texts = (await pageTexts(pdf)).map(squash);
    texts.forEach((t, i) => expect(t).toContain(`Page${i + 1}of${texts.length}`));
  });

  itWithBrowser("header_html and footer_html fill the pageNumber, totalPages and title spans; footer_html overrides page_numbers", async () => {
    const { pdf } = await toPdf({
      html: `<title>Quarterly</title>${paragraphs(40)}`,
      page_numbers: "true",
      header_html: '<span class="title"></span> HDR',
      footer_html: 'Sheet <span class="pageNumber"></span>/<span class="totalPages"></span>',
    });
    const texts = (await pageTexts(pdf)).map(squash);
    expect(texts.length).toBeGreaterThan(1);
    texts.forEach((t, i) => {
      expect(t).toContain("QuarterlyHDR");
      expect(t).toContain(`Sheet${i + 1}/${texts.length}`);
      expect(t).not.toContain("Page1of");
    });
  });

  itWithBrowser("header_html fills the date and url spans", async () => {
    const { pdf } = await toPdf({ html: "<p>x</p>", header_html: 'D:<span class="date"></span> U:<span class="url"></span>' });
    const text = squash((await pageTexts(pdf))[0]);
    expect(text).toMatch(/D:\S*\d/);
    expect(text).toContain("U:http://document.invalid/index.html");
  });

  itWithBrowser("page_ranges keeps only the pages asked for", async () => {
    const html = ["one", "two", "three", "four"].map((w) => `<p style="page-break-after:always">page ${w}</p>`).join("");
    const { body, pdf } = await toPdf({ html, page_ranges: "2-3" });
    expect(body.meta.pages).toBe(2);
    const texts = await pageTexts(pdf);
    expect(texts[0]).toContain("page two");
    expect(texts[1]).toContain("page three");
  });

  itWithBrowser("scale shrinks the rendering, so the same content takes fewer pages", async () => {
    const full = await toPdf({ html: paragraphs(30) });
    const half = await toPdf({ html: paragraphs(30), scale: "0.5" });
    expect(half.body.meta.pages).toBeLessThan(full.body.meta.pages);
  });
});

describeWithBrowser("HTML to PDF: CSS page size, outline, tagged PDF", () => {
  const CSS_PAGE = "<style>@page { size: 100mm 150mm; margin: 5mm }</style><p>custom paper</p>";

  itWithBrowser("the document's @page size decides the paper when no page_format is given, and meta says so", async () => {
    const { body, doc } = await toPdf({ html: CSS_PAGE });
    expectPageSize(doc, 0, [mm(100), mm(150)]);
    expect(body.meta.repaginated_from_css_canvas).toBe(true);
    expect(body.meta.page_format).toBe("css");
  });

  itWithBrowser("an explicit page_format wins over @page unless prefer_css_page_size is true", async () => {
    const explicit = await toPdf({ html: CSS_PAGE, page_format: "A4" });
    expectPageSize(explicit.doc, 0, [mm(210), mm(297)]);
    expect(explicit.body.meta.repaginated_from_css_canvas).toBe(false);
    const preferred = await toPdf({ html: CSS_PAGE, page_format: "A4", prefer_css_page_size: "true" });
    expectPageSize(preferred.doc, 0, [mm(100), mm(150)]);
    expect(preferred.body.meta.repaginated_from_css_canvas).toBe(true);
    const refused = await toPdf({ html: CSS_PAGE, prefer_css_page_size: "false" });
    expectPageSize(refused.doc, 0, [mm(210), mm(297)]);
    expect(refused.body.meta.repaginated_from_css_canvas).toBe(false);
  });

  itWithBrowser("a document without @page size is never reported as repaginated", async () => {
    const { body } = await toPdf({ html: "<style>@page { margin: 1cm }</style><p>plain</p>" });
    expect(body.meta.repaginated_from_css_canvas).toBe(false);
  });

  itWithBrowser("outline builds bookmarks from the headings", async () => {
    const html = `<h1>Chapter One</h1>${paragraphs(20)}<h2>Section A</h2><p>x</p><h1>Chapter Two</h1>`;
    const { pdf } = await toPdf({ html, outline: "true" });
    const facts = await readPdf(pdf);
    expect(facts.outline.map((o) => o.title)).toEqual(["Chapter One", "Chapter Two"]);
    expect(facts.outline[0].children.map((c) => c.title)).toEqual(["Section A"]);
    const plain = await readPdf((await toPdf({ html })).pdf);
    expect(plain.outline).toEqual([]);
  });

  itWithBrowser("when Chromium writes no bookmarks, they are built from the headings with MuPDF, on the right pages", async () => {
    const html = "<h1>Intro</h1><p>a</p><h2 style='page-break-before:always'>Details</h2><h1 style='page-break-before:always'>Appendix</h1>";
    const { pdf } = await renderHtmlToPdf(env, html);
    expect((await readPdf(pdf)).outline).toEqual([]);
    const headings = [
      { level: 1, text: "Intro" },
      { level: 2, text: "Details" },
      { level: 1, text: "Appendix" },
    ];
    const outline = (await readPdf(await withMupdfCall(() => ensureOutline(pdf, headings)))).outline;
    expect(outline.map((o) => [o.title, o.page])).toEqual([
      ["Intro", 0],
      ["Appendix", 2],
    ]);
    expect(outline[0].children.map((c) => [c.title, c.page])).toEqual([["Details", 1]]);
  });

  itWithBrowser("tagged writes a structure tree (accessible PDF)", async () => {
    const tagged = await toPdf({ html: "<h1>Title</h1><p>Body</p>", tagged: "true" });
    expect(catalogHas(tagged.doc, "StructTreeRoot")).toBe(true);
    const untagged = await toPdf({ html: "<h1>Title</h1><p>Body</p>" });
    expect(catalogHas(untagged.doc, "StructTreeRoot")).toBe(false);
  });
});
