import { describe, expect, it } from "vitest";
import { fixLamAlef, isRtlText } from "./bidi";
import type { Glyph } from "./geometry";
import { assignHeadingLevels } from "./headings";
import { joinLines, listMarker } from "./inline";
import { countHeadings, countWords, inline } from "./markdown";
import { readingOrder } from "./order";
import type { Block, Rect, Span } from "./types";

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
