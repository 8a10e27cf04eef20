import { describe, expect, it } from "vitest";
import { layoutPdf, scannedPdf } from "../../../test/support/pdf.mjs";
import { withPdf } from "../mupdf/core/document";
import { layoutDocument, readPages } from "./document";
import { markdownOfPdf } from "./index";
import type { Block, PageModel } from "./types";

async function modelOf(bytes: Uint8Array): Promise<PageModel[]> {
  return withPdf(bytes, (doc, mupdf) => layoutDocument(readPages(doc, mupdf)));
}

const kinds = (pages: PageModel[]) => pages.flatMap((p) => p.blocks.map((b: Block) => b.kind));

describe("layout engine: paragraphs, headings, lists", () => {
  it("joins lines into paragraphs, removes line-end hyphens, sets heading levels from numbering and size", async () => {
    const pdf = await layoutPdf([
      [
        { text: "Annual Report", x: 72, y: 80, size: 24, font: "bold" },
        { text: "1 Introduction", x: 72, y: 130, size: 16, font: "bold" },
        { text: "Layout engines join the lines of one paragraph into a sin-", x: 72, y: 160 },
        { text: "gle run of text, and they keep going across the line break.", x: 72, y: 174 },
        { text: "A second paragraph starts after a gap between the blocks.", x: 72, y: 210 },
        { text: "1.1 Scope", x: 72, y: 250, size: 13, font: "bold" },
        { text: "Only the body text of the page is considered in this section.", x: 72, y: 280 },
      ],
    ]);
    const { markdown, headings } = await markdownOfPdf(pdf);
    expect(markdown).toContain("# Annual Report\n");
    expect(markdown).toContain("## 1 Introduction\n");
    expect(markdown).toContain("### 1.1 Scope\n");
    expect(markdown).toContain("into a single run of text, and they keep going across the line break.");
    expect(markdown).toContain("\n\nA second paragraph starts");
    expect(headings).toBe(3);
  });

  it("reads bulleted and numbered lists with nesting", async () => {
    const pdf = await layoutPdf([
      [
        { text: "Things to pack for the trip this week:", x: 72, y: 80 },
        { text: "• Tent and sleeping bags", x: 72, y: 100 },
        { text: "• Food for three days", x: 72, y: 116 },
        { text: "- Bread and cheese", x: 90, y: 132 },
        { text: "- Apples", x: 90, y: 148 },
        { text: "1. Check the weather", x: 72, y: 190 },
        { text: "2. Tell a friend the route", x: 72, y: 206 },
      ],
    ]);
    const { markdown } = await markdownOfPdf(pdf);
    expect(markdown).toContain("- Tent and sleeping bags\n- Food for three days\n   - Bread and cheese\n   - Apples");
    expect(markdown).toContain("1. Check the weather\n2. Tell a friend the route");
  });

  it("marks bold, italic and monospace spans and keeps links", async () => {
    const pdf = await layoutPdf([
      [
        { text: "Press", x: 72, y: 100 },
        { text: "Save", x: 103, y: 100, font: "bold" },
        { text: "then", x: 132, y: 100, font: "italic" },
        { text: "run make", x: 160, y: 100, font: "mono" },
        { text: "or read the manual online.", x: 222, y: 100, link: "https://example.com/manual" },
      ],
    ]);
    const { markdown } = await markdownOfPdf(pdf);
    expect(markdown).toContain("**Save**");
    expect(markdown).toContain("*then*");
    expect(markdown).toContain("`run make`");
    expect(markdown).toContain("[or read the manual online.](<https://example.com/manual>)");
  });

  it("reads two columns one after the other, under a full-width title", async () => {
    const left = Array.from({ length: 8 }, (_, i) => ({ text: `Left column line ${i + 1} of the first story here`, x: 50, y: 140 + i * 14, size: 10 }));
    const right = Array.from({ length: 8 }, (_, i) => ({ text: `Right column line ${i + 1} of the other story`, x: 320, y: 140 + i * 14, size: 10 }));
    // A gap that lines up across both columns must not interleave them.
    for (const col of [left, right]) for (const item of col.slice(4)) item.y += 10;
    const pdf = await layoutPdf([[{ text: "A Title Across Both Columns", x: 50, y: 90, size: 20, font: "bold" }, ...left, ...right]]);
    const { markdown } = await markdownOfPdf(pdf);
    const at = (s: string) => markdown.indexOf(s);
    expect(at("Left column line 8")).toBeGreaterThan(at("Left column line 1"));
    expect(at("Right column line 1")).toBeGreaterThan(at("Left column line 8"));
    expect(at("A Title")).toBeLessThan(at("Left column line 1"));
  });
});

describe("layout engine: footnotes", () => {
  it("puts a column's footnotes after the page body", async () => {
    const col = (x: number, label: string) =>
      Array.from({ length: 10 }, (_, i) => ({ text: `${label} column body line ${i + 1} of the article text`, x, y: 100 + i * 14, size: 10 }));
    const pdf = await layoutPdf([
      [
        ...col(50, "Left"),
        { text: "1) A footnote to the left column, in small type.", x: 50, y: 700, size: 7 },
        { text: "2) Another note below it, also small.", x: 50, y: 710, size: 7 },
        ...col(320, "Right"),
      ],
    ]);
    const { markdown } = await markdownOfPdf(pdf);
    expect(markdown.indexOf("A footnote to the left column")).toBeGreaterThan(markdown.indexOf("Right column body line 10"));
    expect(markdown.indexOf("Right column body line 1 ")).toBeGreaterThan(markdown.indexOf("Left column body line 10"));
  });
});

describe("layout engine: tables", () => {
  it("reads a ruled table (lattice) with a merged cell", async () => {
    const xs = [72, 200, 300, 400];
    const ys = [100, 120, 140, 160];
    const rules = [
      ...ys.map((y) => ({ rule: [72, y, 400, y] as [number, number, number, number] })),
      ...xs.map((x) => ({ rule: [x, 100, x, 160] as [number, number, number, number] })).filter((_, i) => i !== 2),
      { rule: [300, 120, 300, 160] as [number, number, number, number] },
    ];
    const cells = [
      { text: "Region", x: 76, y: 114 },
      { text: "Sales 2024", x: 204, y: 114 },
      { text: "North", x: 76, y: 134 },
      { text: "1,200", x: 204, y: 134 },
      { text: "4%", x: 304, y: 134 },
      { text: "South", x: 76, y: 154 },
      { text: "950", x: 204, y: 154 },
      { text: "7%", x: 304, y: 154 },
    ];
    const pages = await modelOf(await layoutPdf([[...rules, ...cells, { text: "A sentence after the table closes the page.", x: 72, y: 200 }]]));
    const table = pages[0].blocks.find((b) => b.kind === "table");
    expect(table?.kind === "table" && table.table.kind).toBe("lattice");
    expect(table?.kind === "table" && table.table.rows).toEqual([
      ["Region", "Sales 2024", ""],
      ["North", "1,200", "4%"],
      ["South", "950", "7%"],
    ]);
    const { markdown } = await markdownOfPdf(await layoutPdf([[...rules, ...cells]]));
    expect(markdown).toContain("| Region | Sales 2024 |  |\n| --- | --- | --- |\n| North | 1,200 | 4% |");
  });

  it("reads a borderless table (stream) with a confidence, and never turns prose into one", async () => {
    const rows = [
      ["Item", "Qty", "Price"],
      ["Apples", "12", "3.50"],
      ["Pears", "4", "1.20"],
      ["Plums", "30", "9.00"],
    ];
    const table = rows.flatMap((r, i) => r.map((t, c) => ({ text: t, x: 72 + c * 120, y: 100 + i * 16 })));
    const prose = Array.from({ length: 6 }, (_, i) => [
      { text: "This column of prose runs on and on with words", x: 50, y: 300 + i * 14, size: 10 },
      { text: "and so does this one beside it, sentence after", x: 320, y: 300 + i * 14, size: 10 },
    ]).flat();
    const pages = await modelOf(await layoutPdf([[...table, ...prose]]));
    const tables = pages[0].blocks.filter((b) => b.kind === "table");
    expect(tables).toHaveLength(1);
    const t = tables[0].kind === "table" ? tables[0].table : null;
    expect(t?.kind).toBe("stream");
    expect(t?.rows).toEqual(rows);
    expect(t?.confidence).toBeGreaterThan(0.9);
  });
});

describe("layout engine: more tables", () => {
  const ROWS = [
    ["State", "Revenue", "Capital", "Total"],
    ["Assam . . . . . .", "14,874,821", "2,554,197", "17,429,018"],
    ["Group label", "", "", ""],
    ["Bihar . . . . . .", "21,016,708", "4,332,141", "25,348,849"],
    ["Goa . . . . . . .", "4,055,567", "110,000", "4,165,567"],
  ];

  // Leaders are layout: the cells keep the labels ("Assam"), as a spreadsheet wants them.
  const CELLS = ROWS.map((row) => row.map((t) => t.replace(/( \.)+$/, "")));

  it("reads rows with dot leaders and group-label rows as one borderless table, labels without leaders", async () => {
    const items = ROWS.flatMap((row, r) => row.filter(Boolean).map((text, c) => ({ text, x: 60 + c * 110 + (c ? 30 : 0), y: 100 + r * 14, size: 9 })));
    const pages = await modelOf(await layoutPdf([items]));
    const tables = pages[0].blocks.flatMap((b) => (b.kind === "table" ? [b.table] : []));
    expect(tables).toHaveLength(1);
    expect(tables[0].rows).toEqual(CELLS);
    expect(tables[0].rows[1][0]).toBe("Assam");
  });

  it("reads a page whose text runs down the page (a table set sideways) turned upright", async () => {
    // Row r is a column of text at x = 500 - 16 r, read top to bottom.
    const items = ROWS.flatMap((row, r) => row.filter(Boolean).map((text, c) => ({ text, x: 500 - r * 16, y: 100 + c * 140, size: 9, rotate: -90 })));
    const pages = await modelOf(await layoutPdf([items]));
    const table = pages[0].blocks.find((b) => b.kind === "table");
    expect(table?.kind === "table" && table.table.rows[0]).toEqual(CELLS[0]);
    expect(table?.kind === "table" && table.table.rows[4]).toEqual(CELLS[4]);
  });
});

describe("layout engine: contents, ruled rows, outlines", () => {
  it("reads a table of contents as a two-column table of entries and pages, leaders dropped", async () => {
    const entries: [string, string][] = [
      ["Notices", "vii"],
      ["Preface", "xi"],
      ["Chapter 1. Securing data", "1"],
      ["1.1 Security fundamentals", "2"],
    ];
    const items = [
      { text: "Contents", x: 72, y: 60, size: 24, font: "bold" as const },
      ...entries.map(([title, page], r) => ({ text: `${title} ${". ".repeat(40 - title.length)} ${page}`, x: 72, y: 110 + r * 14, size: 10 })),
    ];
    const { markdown } = await markdownOfPdf(await layoutPdf([items]));
    expect(markdown).toContain("| Notices | vii |\n| --- | --- |\n| Preface | xi |\n| Chapter 1. Securing data | 1 |\n| 1.1 Security fundamentals | 2 |");
  });

  it("keeps a cell wrapped over lines in one row of a table ruled between rows only", async () => {
    const row = (y: number, cells: string[]) => cells.map((text, c) => ({ text, x: 61 + c * 166, y, size: 12 }));
    const items = [
      ...row(90, ["Animal", "Action", "Result"]),
      { rule: [57, 96, 555, 96] as [number, number, number, number] },
      ...row(112, ["Cat", "Says", "Meow"]),
      { rule: [57, 118, 555, 118] as [number, number, number, number] },
      ...row(134, ["Fox", "Says", "Ring-"]),
      { text: "dingdingeringeding", x: 393, y: 148, size: 12 },
      { text: "ding-dong", x: 393, y: 162, size: 12 },
      { rule: [57, 170, 555, 170] as [number, number, number, number] },
      { text: "A closing sentence after the table, written as ordinary prose.", x: 61, y: 200, size: 12 },
    ];
    const pages = await modelOf(await layoutPdf([items]));
    const tables = pages[0].blocks.flatMap((b) => (b.kind === "table" ? [b.table] : []));
    expect(tables).toHaveLength(1);
    expect(tables[0].rows).toEqual([
      ["Animal", "Action", "Result"],
      ["Cat", "Says", "Meow"],
      ["Fox", "Says", "Ring- dingdingeringeding ding-dong"],
    ]);
  });

  it("gives an outline that never skips a level, whatever the type sizes", async () => {
    const pdf = await layoutPdf([
      [
        { text: "Front matter", x: 72, y: 60, size: 20, font: "bold" },
        { text: "A small bold aside", x: 72, y: 100, size: 11, font: "bold" },
        { text: "Some body text that runs long enough to be the body of this page here.", x: 72, y: 120 },
        { text: "1 Introduction", x: 72, y: 160, size: 18, font: "bold" },
        { text: "Some body text that runs long enough to be the body of this page too.", x: 72, y: 190 },
        { text: "1.1 Scope", x: 72, y: 220, size: 14, font: "bold" },
        { text: "Some body text that runs long enough to be the body of this section.", x: 72, y: 250 },
      ],
    ]);
    const levels = (await markdownOfPdf(pdf)).markdown
      .split("\n")
      .filter((l) => l.startsWith("#"))
      .map((l) => l.indexOf(" "));
    expect(levels).toEqual([1, 2, 2, 3]);
  });

  it("ranks headings on a page set in smaller type against its own text, unless body text is on it too", async () => {
    const body = (y: number) => ({ text: "Body text of the document set at its ordinary size, long enough to be its body.", x: 72, y });
    const small = (y: number) => ({ text: "A brochure page set in small type throughout, with many lines of it here.", x: 72, y, size: 7.5 });
    const pdf = await layoutPdf([
      Array.from({ length: 30 }, (_, i) => body(80 + i * 14)),
      [{ text: "Highlights", x: 72, y: 60, size: 9.5 }, ...Array.from({ length: 8 }, (_, i) => small(80 + i * 10))],
      [
        { text: "References", x: 72, y: 60, size: 16, font: "bold" as const },
        body(90),
        { text: "The list below is complete.", x: 72, y: 104 },
        ...Array.from({ length: 8 }, (_, i) => small(130 + i * 10)),
      ],
    ]);
    const { markdown } = await markdownOfPdf(pdf);
    expect(markdown).toMatch(/^#+ Highlights$/m);
    expect(markdown).toMatch(/^#+ References$/m);
    expect(markdown).not.toMatch(/^#+ Body text/m);
  });

  it("drops a footer that sets a notice and the page number on one baseline", async () => {
    const page = (n: number) => [
      { text: `Body text of page ${n} says something worth keeping in the output.`, x: 72, y: 200 },
      { text: "© Copyright Example Corp. 2014. All rights reserved.", x: 72, y: 810, size: 9 },
      { text: `${n}`, x: 520, y: 810, size: 9, font: "bold" as const },
    ];
    const { markdown } = await markdownOfPdf(await layoutPdf([page(1), page(2), page(3)]));
    expect(markdown).not.toContain("Copyright");
    expect(markdown).not.toMatch(/^\**\d\**$/m);
  });
});

describe("layout engine: furniture, invisible text, scans", () => {
  it("drops running headers, footers and page numbers repeated across pages", async () => {
    const page = (n: number) => [
      { text: "ACME Corp · Quarterly Review", x: 72, y: 40, size: 9 },
      { text: `Body text of page ${n} says something worth keeping in the output.`, x: 72, y: 200 },
      { text: `Page ${n} of 3`, x: 270, y: 810, size: 9 },
    ];
    const { markdown } = await markdownOfPdf(await layoutPdf([page(1), page(2), page(3)]));
    expect(markdown).not.toContain("ACME");
    expect(markdown).not.toMatch(/Page \d of 3/);
    for (const n of [1, 2, 3]) expect(markdown).toContain(`Body text of page ${n}`);
  });

  it("counts invisible text (render mode 3, an OCR layer) as the page's words", async () => {
    const pdf = await layoutPdf([[{ text: "Invisible words from an OCR layer", x: 72, y: 100, invisible: true }]]);
    const { markdown, wordCount, pagesWithoutText } = await markdownOfPdf(pdf);
    expect(markdown).toContain("Invisible words from an OCR layer");
    expect(wordCount).toBe(6);
    expect(pagesWithoutText).toEqual([]);
  });

  it("keeps code in fences, line by line", async () => {
    const pdf = await layoutPdf([
      [
        { text: "function add(a, b) {", x: 72, y: 100, font: "mono", size: 10 },
        { text: "return a + b;", x: 96, y: 112, font: "mono", size: 10 },
        { text: "}", x: 72, y: 124, font: "mono", size: 10 },
      ],
    ]);
    const { markdown } = await markdownOfPdf(pdf);
    expect(markdown).toContain("```\nfunction add(a, b) {\n    return a + b;\n}\n```");
  });

  it("a page of only images is reported as needing OCR; a blank page is just empty", async () => {
    const scanned = await markdownOfPdf(await scannedPdf(2, 100));
    expect(scanned).toMatchObject({ pagesWithoutText: [0, 1], wordCount: 0, pages: 2 });
    const blank = await modelOf(await layoutPdf([[]]));
    expect(blank[0].needsOcr).toBe(false);
    expect(kinds(blank)).toEqual([]);
  });
});
