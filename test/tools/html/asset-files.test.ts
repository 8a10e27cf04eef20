import { zipSync } from "fflate";
import { expect } from "vitest";
import { describeWithBrowser, itWithBrowser } from "../../support/browser";
import { file, postForm, withKey } from "../../support/http";
import { greenish, inkOn, reddish, withMupdf } from "../../support/mupdf";
import { pageTexts } from "../../support/pdf-text";
import { caller, expectPageSize, mm, PREVIEW, toPdf } from "./helpers";

// Assets as separate `files` parts (Gotenberg's convention), alone, beside a
// ZIP, and as the page itself (index.html). Each asset's effect is read
// from the output: the style sheet's @page size from the PDF's page box, the
// image's red from the rendered page. Both pages are standards mode
// (<!doctype html>), where Chromium ignores a style sheet not served as
// text/css and an <img> SVG not served as image/svg+xml: the effects also
// prove the content types given by extension.

const enc = (s: string) => new TextEncoder().encode(s);
const PAGE_CSS = "@page { size: 100mm 50mm; margin: 0 } body { margin: 0 }";
const RED_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#ff0000"/></svg>';
const MARKUP = '<!doctype html><link rel="stylesheet" href="css/page.css"><img src="img/red.svg" width="200" height="100"><p>With assets</p>';

const css = (name: string, body = PAGE_CSS) => file(enc(body), name, "application/octet-stream");
const svg = (name: string) => file(enc(RED_SVG), name, "application/octet-stream");

describeWithBrowser("HTML to PDF: assets as separate files parts", () => {
  itWithBrowser("serves a style sheet and an image given as parts, typed by extension: the paper and the picture show", async () => {
    // The parts are uploaded as octet-stream: the types come from the names, not the client.
    const { body, doc, pdf } = await toPdf({ html: MARKUP, files: [css("css/page.css"), svg("img/red.svg"), css("unused.txt", "never referenced")] });
    expect(body.meta).toMatchObject({ source: "html", pages: 1, page_format: "css" });
    expectPageSize(doc, 0, [mm(100), mm(50)]);
    const red = await inkOn(pdf, 0, reddish);
    expect(red.count).toBeGreaterThan(200 * 100 * 0.75 * 0.75 * 0.9); // a 200x100 CSS px box is 150x75 pt
    expect((await pageTexts(pdf))[0]).toContain("With assets");
  });

  itWithBrowser("a bare file name answers a reference with folders (curl sends names without paths)", async () => {
    const { doc, pdf } = await toPdf({ html: MARKUP, files: [css("page.css"), svg("red.svg")] });
    expectPageSize(doc, 0, [mm(100), mm(50)]);
    expect((await inkOn(pdf, 0, reddish)).count).toBeGreaterThan(1000);
  });

  itWithBrowser("parts and a ZIP together are one set: the style sheet from the ZIP, the image from a part", async () => {
    const zip = file(zipSync({ "css/page.css": enc(PAGE_CSS) }), "assets.zip", "application/zip");
    const { doc, pdf } = await toPdf({ html: MARKUP, assets: zip, files: [svg("img/red.svg")] });
    expectPageSize(doc, 0, [mm(100), mm(50)]);
    expect((await inkOn(pdf, 0, reddish)).count).toBeGreaterThan(1000);
  });

  itWithBrowser("as Gotenberg: with no other source, the part named index.html is the page, beside its assets", async () => {
    const index = file(enc(MARKUP), "index.html", "text/html");
    const { body, doc } = await toPdf({ files: [index, css("css/page.css"), svg("img/red.svg")] });
    expect(body.meta.source).toBe("file");
    expect(body.url).toMatch(/\/index\.pdf$/);
    expectPageSize(doc, 0, [mm(100), mm(50)]);
  });

  itWithBrowser("HTML preview serves the parts too: the style sheet paints the viewport", async () => {
    const acc = await caller();
    const sheet = css("look.css", "html, body { margin: 0; height: 100%; background: #00c000 }");
    const res = await postForm(
      PREVIEW,
      { html: '<!doctype html><link rel="stylesheet" href="look.css"><p>green</p>', files: [sheet], viewport_width: "300", viewport_height: "200" },
      withKey(acc.key),
    );
    expect(res.status).toBe(200);
    const { image } = (await res.json()) as { image: string };
    const png = Uint8Array.from(atob(image.slice(image.indexOf(",") + 1)), (c) => c.charCodeAt(0));
    const green = await greenShare(png);
    expect(green).toBeGreaterThan(0.9);
  });
});

/** The share of a PNG's pixels that are green, read by MuPDF (an independent decoder). */
function greenShare(png: Uint8Array): Promise<number> {
  return withMupdf((mupdf) => {
    const pix = new mupdf.Image(png).toPixmap();
    try {
      const px = pix.getPixels();
      const [w, h, stride] = [pix.getWidth(), pix.getHeight(), pix.getStride()];
      const n = stride / w; // samples per pixel, alpha included when the PNG has one
      let hits = 0;
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) if (greenish(px[y * stride + x * n], px[y * stride + x * n + 1], px[y * stride + x * n + 2])) hits++;
      return hits / (w * h);
    } finally {
      pix.destroy();
    }
  });
}
