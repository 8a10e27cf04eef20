import { describe, expect, it } from "vitest";
import { dropLineNumbers, newLineNumberMemory } from "./line-numbers";
import type { RawPage, Rect, TextLine } from "./types";

// Margin line numbers on hand-made pages: what is furniture and what is not.

const line = (text: string, x0: number, y: number, size = 10): TextLine => {
  const words = text.split(" ").map((w, i, all) => {
    const start = x0 + all.slice(0, i).join(" ").length * 5 + (i ? 5 : 0);
    return { text: w, box: [start, y, start + w.length * 5, y + size] as Rect };
  });
  const box: Rect = [x0, y, words[words.length - 1].box[2], y + size];
  return { box, words, size, spans: [{ text, size, box, bold: false, italic: false, mono: false }] };
};

const page = (lines: TextLine[]): RawPage => ({ index: 0, width: 600, height: 800, lines, rules: [], images: [], needsOcr: false });
const texts = (p: RawPage) => p.lines.map((l) => l.spans.map((s) => s.text).join(""));
const prose = (i: number) => `Body line ${i} of the brief runs on here`;

describe("margin line numbers", () => {
  it("drops a column of numbers left of the text, on its lines' baselines, every line or every fifth", () => {
    for (const every of [1, 5]) {
      const lines = Array.from({ length: 20 }, (_, i) => line(prose(i), 100, 100 + i * 14));
      const numbers = lines.flatMap((_, i) => ((i + 1) % every ? [] : [line(String(i + 1), 60, 100 + i * 14)]));
      const out = dropLineNumbers(page([...lines, ...numbers]));
      expect(texts(out)).toEqual(lines.map((_, i) => prose(i)));
    }
  });

  it("cuts a number MuPDF set on one line with a heading, and finds the column on a later page by its place", () => {
    const memory = newLineNumberMemory();
    const first = Array.from({ length: 6 }, (_, i) => line(String(i + 1), 60, 100 + i * 14));
    dropLineNumbers(page([...first, ...first.map((_, i) => line(prose(i), 100, 100 + i * 14))]), memory);
    const heading = line("7", 60, 100);
    heading.words.push({ text: "Argument", box: [100, 100, 140, 110] });
    heading.spans = [
      { ...heading.spans[0], text: "7" },
      { ...heading.spans[0], text: " Argument" },
    ];
    heading.box = [60, 100, 140, 110];
    const out = dropLineNumbers(page([heading, line(prose(1), 100, 114), line("8", 60, 114)]), memory);
    expect(texts(out)).toEqual(["Argument", prose(1)]);
  });

  it("keeps a table's row numbers, numbers out of order, and numbers inside the text", () => {
    const rows = Array.from({ length: 6 }, (_, i) => [line(String(i + 1), 100, 114 + i * 14), line(`Item ${i}`, 160, 114 + i * 14)]).flat();
    const table = page([line("No.", 100, 100), line("Name", 160, 100), ...rows, ...Array.from({ length: 4 }, (_, i) => line(prose(i), 100, 220 + i * 14))]);
    expect(dropLineNumbers(table).lines).toHaveLength(table.lines.length);
    const shuffled = [3, 1, 4, 2, 5].map((n, i) => line(String(n), 60, 100 + i * 14));
    const body = shuffled.map((_, i) => line(prose(i), 100, 100 + i * 14));
    expect(dropLineNumbers(page([...shuffled, ...body])).lines).toHaveLength(10);
  });
});
