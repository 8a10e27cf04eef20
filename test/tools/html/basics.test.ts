import { env } from "cloudflare:workers";
import { zipSync } from "fflate";
import { expect } from "vitest";
import { renderHtmlToPdf } from "../../../src/engines/browser";
import { balanceOf } from "../../support/accounts";
import { beaconHits, describeWithBrowser, itWithBrowser, pageServer } from "../../support/browser";
import { file } from "../../support/http";
import { inkOn, reddish } from "../../support/mupdf";
import { pageTexts } from "../../support/pdf-text";
import { caller, expectPageSize, mm, toPdf } from "./helpers";

const enc = (s: string) => new TextEncoder().encode(s);
const htmlFile = (markup: string, name = "report.html") => file(enc(markup), name, "text/html");

describeWithBrowser("HTML to PDF: sources, precedence and meta", () => {
  itWithBrowser("renders html markup to an A4 PDF, charges 40 and reports exact meta", async () => {
    const acc = await caller();
    const { body, doc, pdf } = await toPdf({ html: "<h1>Hello PDF</h1><p>Second line</p>" }, acc.key);
    expect(body.success).toBe(true);
    expect(body.credits_charged).toBe(40);
    expect(body.meta).toMatchObject({ source: "html", page_format: "A4", landscape: false, repaginated_from_css_canvas: false, pages: 1 });
    expect(body.meta.output_bytes).toBe(pdf.length);
    expect(body.meta.processing_time_ms).toBeGreaterThan(0);
    expectPageSize(doc, 0, [mm(210), mm(297)]);
    expect((await pageTexts(pdf))[0]).toContain("Hello PDF");
    expect(await balanceOf(acc.token)).toBe(960);
  });

  itWithBrowser("renders an uploaded .html file (source file) and names the output after it", async () => {
    const { body, pdf } = await toPdf({ file: htmlFile("<p>From the upload</p>") });
    expect(body.meta.source).toBe("file");
    expect(body.url).toMatch(/report\.pdf$/);
    expect((await pageTexts(pdf))[0]).toContain("From the upload");
  });

  itWithBrowser("renders a url source from an allowed origin", async () => {
    const { body, pdf } = await toPdf({ url: `${pageServer()}/page` });
    expect(body.meta.source).toBe("url");
    expect((await pageTexts(pdf))[0]).toContain("Hello from the page server");
  });

  itWithBrowser("takes file over html over url, and never fetches the lower sources", async () => {
    const token = `prec-${crypto.randomUUID()}`;
    const url = `${pageServer()}/beacon/${token}`;
    const fromFile = await toPdf({ file: htmlFile("<p>FILE WINS</p>"), html: "<p>HTML LOSES</p>", url });
    expect(fromFile.body.meta.source).toBe("file");
    expect((await pageTexts(fromFile.pdf))[0]).toContain("FILE WINS");
    const fromHtml = await toPdf({ html: "<p>HTML WINS</p>", url });
    expect(fromHtml.body.meta.source).toBe("html");
    expect((await pageTexts(fromHtml.pdf))[0]).not.toContain("LOSES");
    expect(await beaconHits(token)).toBe(0);
  });

  itWithBrowser("serves assets uploaded beside the markup as files parts, by name", async () => {
    const css = file(enc("p { background: #ff0000; color: #ff0000; font-size: 40px; }"), "style.css", "text/css");
    const { pdf } = await toPdf({ html: '<link rel="stylesheet" href="style.css"><p>styled</p>', files: [css] });
    expect((await inkOn(pdf, 0, reddish)).count).toBeGreaterThan(100);
  });

  itWithBrowser("serves assets from a ZIP, keeping their folders", async () => {
    const zip = zipSync({ "css/site.css": enc("p { background: #ff0000; color: #ff0000; font-size: 40px; }") });
    const { pdf } = await toPdf({
      file: htmlFile('<link rel="stylesheet" href="css/site.css"><p>zipped</p>'),
      assets: file(zip, "assets.zip", "application/zip"),
    });
    expect((await inkOn(pdf, 0, reddish)).count).toBeGreaterThan(100);
  });

  itWithBrowser("offers renderHtmlToPdf to other tools: markup in, PDF bytes and page count out", async () => {
    const result = await renderHtmlToPdf(env, "<h1>Seam</h1><p style='page-break-after:always'>one</p><p>two</p>", { pageFormat: "letter", margin: "small" });
    expect(result.pages).toBe(2);
    expect(new TextDecoder().decode(result.pdf.subarray(0, 5))).toBe("%PDF-");
  });
});
