import { describe, expect, it } from "vitest";
import { pictureLines, pictureRegions } from "./pictures";
import type { RawPage, Rect, TextLine } from "./types";

// Which pictures of a text page OCR reads, and which of its words are kept.

const page = (images: Rect[], lines: TextLine[] = []): RawPage => ({ index: 0, width: 595, height: 842, lines, rules: [], images, needsOcr: false });
const line = (box: Rect): TextLine => ({ box, words: [], size: 10, spans: [{ text: "Text", size: 10, box, bold: false, italic: false, mono: false }] });
const word = (text: string, x: number, y: number, confidence = 0.95) => ({ text, box: [x, y, x + text.length * 6, y + 10] as Rect, line: y, confidence });

describe("pictures of text", () => {
  it("reads pictures large enough to hold text that no text is set over, a few a page, largest first", () => {
    const small: Rect = [72, 100, 130, 200]; // under an inch wide
    const flat: Rect = [72, 220, 300, 240]; // under 0.4 inch high
    const under: Rect = [72, 300, 400, 400]; // text set over it
    const big: Rect = [72, 450, 500, 700];
    const mid: Rect = [72, 720, 300, 800];
    expect(pictureRegions(page([small, flat, under, mid, big], [line([100, 340, 200, 350])]))).toEqual([big, mid]);
    expect(pictureRegions(page(Array.from({ length: 9 }, (_, i): Rect => [72, 10 + i * 90, 300, 80 + i * 90])))).toHaveLength(4);
    expect(pictureRegions({ ...page([big]), turned: true })).toEqual([]);
    expect(pictureRegions(page([[0, 0, 595, 842]]))).toEqual([]);
  });

  it("keeps sure words as lines, and nothing of a photo's unsure or junk readings", () => {
    const table = [word("Region", 80, 100), word("Units", 200, 100), word("North", 80, 120), word("1200", 200, 120)];
    expect(
      pictureLines(page([]), { words: table })
        .map((l) =>
          l.spans
            .map((s) => s.text)
            .join("")
            .trim(),
        )
        .sort(),
    ).toEqual(["1200", "North", "Region", "Units"]);
    expect(pictureLines(page([]), { words: table.map((w) => ({ ...w, confidence: 0.4 })) })).toEqual([]);
    expect(pictureLines(page([]), { words: [word("Region", 80, 100), word("~~", 200, 100), word("Xq7z", 80, 120)] })).toEqual([]);
    const junk = ["xq7#kz", "vvb@@9", "qrtzp", "zzkq", "pqxv", "brrtt"].map((t, i) => word(t, 80 + (i % 3) * 80, 100 + Math.floor(i / 3) * 20));
    expect(pictureLines(page([]), { words: junk })).toEqual([]);
    expect(pictureLines(page([]), { words: [word("Region", 80, 100)] })).toEqual([]);
  });
});
