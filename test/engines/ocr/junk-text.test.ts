import { describe, expect, it } from "vitest";
import { coversPage, isJunkText } from "../../../src/engines/layout/junk-text";
import type { TextLine } from "../../../src/engines/layout/types";

// Which text layers over a scan are junk (sent to OCR) and which are kept.

const line = (text: string): TextLine => ({
  box: [0, 0, 100, 10],
  spans: [],
  size: 10,
  words: text.split(" ").map((t) => ({ text: t, box: [0, 0, 10, 10] as [number, number, number, number] })),
});

describe("junk text layers", () => {
  it("takes words, capitals, numbers and punctuation as readable", () => {
    expect(isJunkText([line("The invoice (No. 1,204) is due on 2024-03-15, PAID in FULL by Acme.")])).toBe(false);
    expect(isJunkText([line("Überweisung für März: 450,00 € — bitte prüfen")])).toBe(false);
  });

  it("takes consonant runs, mixed case and symbols as junk", () => {
    expect(isJunkText([line("xq7#kz vvb@@9 qrtzp ~~fj zzkq 3#@ pqxv brrtt lkjh")])).toBe(true);
    expect(isJunkText([line("tHe iNvoIcE xKcd ZzqW rtPl ghTr")])).toBe(true);
  });

  it("does not judge fewer than five words", () => {
    expect(isJunkText([line("qxz wvbn kkq")])).toBe(false);
  });

  it("a picture covering 85% of the page is the page", () => {
    expect(coversPage([[0, 0, 595, 842]], 595, 842)).toBe(true);
    expect(coversPage([[0, 0, 595, 600]], 595, 842)).toBe(false);
  });
});
