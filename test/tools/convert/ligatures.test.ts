import { describe, expect, it } from "vitest";
import { SUBSET_MAX_PAGES } from "../../../src/engines/convert/flow-layout";
import { mupdfTexts } from "../../support/mupdf";
import { pageTexts, squash } from "../../support/pdf-text";
import { converted } from "./support";

// Issue #32: MuPDF's HTML engine draws "fi", "ffl"... with the font's
// ligature glyphs. The PDF's text layer must still say what was written:
// read with the suite's own pdf-lib reader (ToUnicode CMaps, not MuPDF), the
// words are there letter for letter and no U+FB00-FB06 is left.

const utf8 = (s: string) => new TextEncoder().encode(s);
const WORDS = ["final", "office", "affluent", "flag", "waffle", "efficient", "shuffle", "fjord"];
const LIGATURES = /[\ufb00-\ufb06]/u;

/** What a reader of the PDF's text layer finds, words split on whitespace. */
async function readBack(pdf: Uint8Array) {
  const texts = await pageTexts(pdf);
  const all = texts.join("\n");
  return { all, squashed: squash(all) };
}

describe("Convert document: the text layer of TXT and Markdown PDFs reads as written (no ligature code points)", () => {
  it("TXT → PDF: every fi/ff/fl/ffi/ffl word extracts as its letters", async () => {
    const text = `${WORDS.join(" ")}\nThe final office memo: affluent waffle flags.`;
    const { out } = await converted(utf8(text), "words.txt", "pdf", "mupdf-html");
    const { all, squashed } = await readBack(out);
    expect(all).not.toMatch(LIGATURES);
    // pdf-lib's reader sees glyphs, not the gaps MuPDF leaves between words: compare without whitespace.
    expect(squashed).toBe(squash(text));
    for (const w of WORDS) expect(squashed).toContain(w);
    const mupdf = (await mupdfTexts(out)).join("\n");
    for (const w of [...WORDS, "final office memo"]) expect(mupdf).toContain(w);
  });

  it("Markdown → PDF: headings, bold, italic, lists and tables extract as their letters too", async () => {
    const md = [
      "# The final flag",
      "",
      `${WORDS.join(" ")} **office affluent** *waffle efficient*`,
      "",
      "- first fluffy item",
      "- offline official",
      "",
      "| Staff | Traffic |",
      "|-------|---------|",
      "| fifty | affix |",
      "",
      "Inline `affluent_office` code.",
    ].join("\n");
    const { out } = await converted(utf8(md), "words.md", "pdf", "marked+mupdf-html");
    const { all, squashed } = await readBack(out);
    expect(all).not.toMatch(LIGATURES);
    for (const w of [
      ...WORDS,
      "Thefinalflag",
      "officeaffluent",
      "waffleefficient",
      "firstfluffyitem",
      "offlineofficial",
      "Staff",
      "Traffic",
      "fifty",
      "affix",
      "affluent_office",
    ]) {
      expect(squashed, w).toContain(w);
    }
  });

  it("a document too long for font subsetting (whole fonts kept) reads as written too", async () => {
    const line = "The final office memo on affluent waffle flags.";
    const text = Array.from({ length: 48 * (SUBSET_MAX_PAGES + 10) }, (_, i) => `${i + 1}. ${line}`).join("\n");
    const { out } = await converted(utf8(text), "long.txt", "pdf", "mupdf-html");
    const texts = await pageTexts(out);
    expect(texts.length).toBeGreaterThan(SUBSET_MAX_PAGES);
    for (const page of [texts[0], texts[texts.length - 1]]) {
      expect(page).not.toMatch(LIGATURES);
      expect(squash(page)).toContain(squash(line));
    }
  }, 120_000);
});
