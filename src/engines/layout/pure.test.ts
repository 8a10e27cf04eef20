import { describe, expect, it } from "vitest";
import { fixLamAlef, isRtlText } from "./bidi";
import type { Glyph } from "./geometry";
import { assignHeadingLevels } from "./headings";
import { joinLines, listMarker } from "./inline";
import { joinBaselines } from "./lines";
import { countHeadings, countWords, inline } from "./markdown";
import { readingOrder } from "./order";
import { streamTables } from "./stream";
import type { Block, Rect, Span, TextLine } from "./types";

// The engine's pure steps on hand-made data.

const span = (text: string, extra: Partial<Span> = {}): Span => ({ text, size: 10, box: [0, 0, 1, 1], bold: false, italic: false, mono: false, ...extra });
const glyph = (c: string, x0: number, x1: number): Glyph => ({
  c,
  box: [x0, 0, x1, 10],
  size: 10,
  style: { bold: false, italic: false, mono: false },
  link: undefined,
});

describe("right-to-left text", () => {
  it("puts a lam-alef ligature MuPDF reports as zero-width alef + lam back in logical order", () => {
    const line = [glyph("خ", 360, 366), glyph("ا", 359, 359), glyph("ل", 352, 359), glyph("ل", 345, 352)];
    expect(
      fixLamAlef(line)
        .map((g) => g.c)
        .join(""),
    ).toBe("خلال");
  });

  it("gives back the alef MuPDF drops before a lam-alef ligature, where the line draws its spaces", () => {
    // "ال" + "ا" (dropped) + "لا"-ligature + "ق": the space glyph's left edge stands an alef's width off the ligature.
    const line = [glyph(" ", 480, 483), glyph("ا", 477, 477), glyph("ل", 471.5, 477), glyph("ق", 467, 471.5)];
    expect(
      fixLamAlef(line)
        .map((g) => g.c)
        .join(""),
    ).toBe(" الاق");
  });

  it("tells right-to-left text by its letters", () => {
    expect(isRtlText("تعتبر البرمجة بلغة R و Python")).toBe(true);
    expect(isRtlText("Python with one word: مرحبا")).toBe(false);
  });
});

describe("inline text", () => {
  it("joins lines, removing a hyphen that breaks a word, keeping one between words", () => {
    const text = joinLines([[span("a sin-")], [span("gle word and a well-")], [span("Known name")]])
      .map((s) => s.text)
      .join("");
    expect(text).toBe("a single word and a well- Known name");
  });

  it("recognises bullets and numbering, not numbers", () => {
    expect(listMarker("• item")).toMatchObject({ ordered: false });
    expect(listMarker("•item")).toMatchObject({ ordered: false });
    expect(listMarker("- item")).toMatchObject({ ordered: false });
    expect(listMarker("2) item")).toMatchObject({ ordered: true, marker: "2)" });
    expect(listMarker("(iv) item")).toMatchObject({ ordered: true });
    for (const t of ["-5 degrees", "2024. A year", "e.g. this", "*emphasis*"]) expect(listMarker(t)).toBeNull();
  });

  it("writes styles and links, escaping markup characters", () => {
    expect(
      inline([span("a "), span("bold", { bold: true }), span(" and "), span("x*y", { italic: true }), span(" "), span("site", { link: "https://e.x/a b" })]),
    ).toBe("a **bold** and *x\\*y* [site](<https://e.x/a b>)");
  });

  it("counts words and headings as a reader sees them", () => {
    const md = "# Title\n\nOne *two* [three](<https://x.y>) ![](#page-1-image-1)\n\n| a | b |\n| --- | --- |\n\n```\n# not a heading\n```\n";
    expect(countHeadings(md)).toBe(1);
    expect(countWords(md)).toBe(1 + 3 + 2 + 3);
  });
});

describe("reading order", () => {
  const box = (x0: number, y0: number, x1: number, y1: number, id: string) => ({ box: [x0, y0, x1, y1] as Rect, id });

  it("reads columns one after the other, under a title that spans them", () => {
    const items = [
      box(50, 50, 550, 70, "title"),
      ...[0, 1, 2].map((i) => box(320, 100 + i * 20, 550, 112 + i * 20, `right${i}`)),
      ...[0, 1, 2].map((i) => box(50, 100 + i * 20, 280, 112 + i * 20, `left${i}`)),
    ];
    expect(readingOrder(items).map((i) => i.id)).toEqual(["title", "left0", "left1", "left2", "right0", "right1", "right2"]);
  });
});

describe("heading levels", () => {
  const h = (text: string, size: number): Block => ({ kind: "heading", level: 0, spans: [span(text, { size })], size, box: [0, 0, 1, 1] });
  const levels = (blocks: Block[]) => assignHeadingLevels([{ index: 0, blocks, needsOcr: false }])[0].blocks.map((b) => (b.kind === "heading" ? b.level : 0));

  it("follows numbering, with a larger title above it", () => {
    expect(levels([h("Report", 24), h("1 Intro", 16), h("1.1 Scope", 13), h("Notes", 13), h("2 Method", 16)])).toEqual([1, 2, 3, 3, 2]);
  });

  it("ranks sizes when nothing is numbered", () => {
    expect(levels([h("Big", 20), h("Middle", 16), h("Small", 13), h("Middle again", 16)])).toEqual([1, 2, 3, 2]);
  });
});

const seg = (text: string, x0: number, y0: number, x1: number, size = 10): TextLine => ({
  box: [x0, y0, x1, y0 + size],
  spans: [span(text, { size })],
  words: text
    .trim()
    .split(/\s+/)
    .map((w, i, all) => ({ text: w, box: [x0 + ((x1 - x0) * i) / all.length, y0, x0 + ((x1 - x0) * (i + 1)) / all.length, y0 + size] as Rect })),
  size,
});

describe("segments on one baseline", () => {
  it("joins a justified word to its line, but never across a gutter that runs through the rows around it", () => {
    // Two columns, 100-190 and 200-290; the word "upon " (drawn with its space) reaches 4 font sizes.
    const rows = [0, 12, 24, 36, 48].flatMap((y) => [seg("left column words", 100, y, 190), seg("right column words", 200, y, 290)]);
    const joined = joinBaselines([...rows, seg("upon ", 150, 60, 190), seg("Heading", 200, 60, 260)]);
    expect(joined.filter((l) => l.box[1] === 60).map((l) => l.spans.map((s) => s.text).join(""))).toEqual(["upon ", "Heading"]);
    // Alone on the page, the same two segments are one line.
    expect(joinBaselines([seg("upon ", 150, 60, 190), seg("Heading", 200, 60, 260)])).toHaveLength(1);
  });
});

describe("borderless tables", () => {
  it("keeps labels set left and figures set right in one column, and cuts a header where figures end", () => {
    const row = (y: number, ...cells: [string, number, number][]) => cells.map(([t, x0, x1]) => seg(t, x0, y, x1));
    const lines: TextLine[] = [
      // "Material 2018" and "Count" closer than a cell gap: one segment, cut where three rows' figures end (120).
      seg("Item", 0, 0, 40),
      {
        ...seg("Material 2018 Count", 60, 0, 180),
        words: [
          { text: "Material", box: [60, 0, 98, 10] },
          { text: "2018", box: [101, 0, 120, 10] },
          { text: "Count", box: [127, 0, 150, 10] },
        ],
      },
      ...row(14, ["Alpha", 0, 30], ["Court", 60, 85], ["15,486", 150, 180]),
      ...row(28, ["Beta", 0, 25], ["2,961", 95, 120], ["71,488", 150, 180]),
      ...row(42, ["Gamma", 0, 35], ["39,841", 90, 120], ["13,357", 150, 180]),
      ...row(56, ["Delta", 0, 30], ["48,806", 90, 120], ["25,537", 150, 180]),
      ...row(70, ["Omega", 0, 30], ["Future", 60, 88], ["1,127", 155, 180]),
    ];
    const [table] = streamTables(lines);
    expect(table.rows.map((r) => r.length)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(table.rows.map((r) => r[1])).toEqual(["Material 2018", "Court", "2,961", "39,841", "48,806", "Future"]);
    // Without the header to span them, the labels' and the figures' bands are still one column.
    const [body] = streamTables(lines.slice(2));
    expect(body.rows.map((r) => r.length)).toEqual([3, 3, 3, 3, 3]);
  });
});
