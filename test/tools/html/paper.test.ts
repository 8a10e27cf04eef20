import { expect } from "vitest";
import { describeWithBrowser, itWithBrowser } from "../../support/browser";
import { inkOn, reddish } from "../../support/mupdf";
import { pageTexts } from "../../support/pdf-text";
import { expectPageSize, inch, mm, toPdf } from "./helpers";

// A red block across the full content width: where its ink starts is the margin.
const RED_BLOCK = '<div style="background:#ff0000;height:200px;width:100%"></div>';

describeWithBrowser("HTML to PDF: paper, orientation, margins, background", () => {
  itWithBrowser.each([
    ["Letter", [inch(8.5), inch(11)]],
    ["legal", [inch(8.5), inch(14)]],
    ["A3", [mm(297), mm(420)]],
    ["a6", [mm(105), mm(148)]],
    ["Tabloid", [inch(11), inch(17)]],
    ["LEDGER", [inch(17), inch(11)]],
  ] as const)("page_format %s gives its paper size", async (format, size) => {
    const { body, doc } = await toPdf({ html: "<p>paper</p>", page_format: format });
    expectPageSize(doc, 0, [size[0], size[1]]);
    expect(body.meta.page_format.toLowerCase()).toBe(format.toLowerCase());
  });

  itWithBrowser("landscape swaps the paper and is reported in meta", async () => {
    const { body, doc } = await toPdf({ html: "<p>wide</p>", page_format: "A4", landscape: "true" });
    expectPageSize(doc, 0, [mm(297), mm(210)]);
    expect(body.meta.landscape).toBe(true);
  });

  itWithBrowser.each([
    ["none", 0],
    ["small", mm(10)],
    ["default", mm(20)],
    ["large", mm(30)],
  ] as const)("margin %s insets the content on every side", async (margin, points) => {
    const { pdf } = await toPdf({ html: `<body style="margin:0">${RED_BLOCK}</body>`, margin });
    const ink = await inkOn(pdf, 0, reddish);
    expect(Math.abs(ink.box[0] - points)).toBeLessThan(2);
    expect(Math.abs(ink.box[1] - points)).toBeLessThan(2);
    expect(Math.abs(ink.page[0] - ink.box[2] - points)).toBeLessThan(2);
  });

  itWithBrowser("print_background false leaves backgrounds out; the default prints them", async () => {
    const withBg = await toPdf({ html: RED_BLOCK });
    const without = await toPdf({ html: RED_BLOCK, print_background: "false" });
    expect((await inkOn(withBg.pdf, 0, reddish)).count).toBeGreaterThan(1000);
    expect((await inkOn(without.pdf, 0, reddish)).count).toBe(0);
  });

  itWithBrowser("screen_width sets the viewport the page is laid out in", async () => {
    const html = '<script>document.write("<p>viewport " + window.innerWidth + "</p>")</script>';
    const { pdf } = await toPdf({ html, screen_width: "777", emulated_media: "screen" });
    expect((await pageTexts(pdf))[0]).toContain("viewport 777");
  });
});
