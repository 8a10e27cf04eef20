import { describe, expect, it } from "vitest";
import { mupdfTexts } from "../../support/mupdf";
import { embeddedFonts, pdfStructure } from "../../support/pdf-read";
import { pageTexts, squash } from "../../support/pdf-text";
import { converted, similarity } from "./support";

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("Convert document: TXT → PDF (mupdf-html) and Markdown → PDF (marked+mupdf-html)", () => {
  it("wraps long lines inside A4 and paginates long text", async () => {
    const para = "The quick brown fox jumps over the lazy dog while the report keeps going. ".repeat(12);
    const text = Array.from({ length: 120 }, (_, i) => `Line ${i + 1}: ${i % 10 === 0 ? para : "short"}`).join("\n");
    const { body, out } = await converted(utf8(text), "notes.txt", "pdf", "mupdf-html");
    expect(body.metadata.source_format).toBe("txt");
    const pdf = await pdfStructure(out);
    expect(pdf.pages).toBeGreaterThan(2);
    // pdf-lib's reader sees glyphs, not the gaps MuPDF leaves between words: compare without whitespace.
    const pages = (await pageTexts(out)).map(squash);
    expect(pages[0]).toContain(squash("Line 1:"));
    expect(pages[pages.length - 1]).toContain(squash("Line 120: short"));
    expect(pages.join("")).toBe(squash(text));
    expect(similarity(text, (await mupdfTexts(out)).join("\n"))).toBeGreaterThanOrEqual(0.99);
    expect(body.quality_score).toBeGreaterThanOrEqual(0.99);
  });

  it("prints Latin, Greek, Cyrillic, CJK and Arabic with embedded subset fonts (UTF-8 with BOM, CRLF)", async () => {
    const lines = ["Grüße, café", "Καλημέρα κόσμε", "Привет, мир", "你好世界", "こんにちは", "안녕하세요", "مرحبا بالعالم"];
    const { body, out } = await converted(utf8(`\uFEFF${lines.join("\r\n")}`), "scripts.txt", "pdf", "mupdf-html");
    const text = (await mupdfTexts(out)).join("\n");
    for (const l of lines.slice(0, 6)) expect(text).toContain(l);
    // Arabic comes back in visual order from a PDF's text layer; its words are all there.
    for (const w of ["مرحبا", "بالعالم"]) expect(text.includes(w) || text.includes([...w].reverse().join(""))).toBe(true);
    expect((await embeddedFonts(out)).length).toBeGreaterThanOrEqual(2);
    expect(body.quality_score).toBeGreaterThanOrEqual(0.85);
  });

  it("UTF-16 text is read by its BOM", async () => {
    const source = "Zürich ½ — UTF-16";
    const le = new Uint8Array(2 + source.length * 2);
    le.set([0xff, 0xfe]);
    for (let i = 0; i < source.length; i++) le.set([source.charCodeAt(i) & 0xff, source.charCodeAt(i) >> 8], 2 + i * 2);
    const { out } = await converted(le, "utf16.txt", "pdf", "mupdf-html");
    expect((await mupdfTexts(out)).join("")).toContain("Zürich ½ — UTF-16");
  });

  it("Markdown: headings, emphasis, lists, code and tables are laid out; markup characters are not printed", async () => {
    const md = [
      "# Annual Summary",
      "",
      "Some **bold words** and *italic words* with `inline code`.",
      "",
      "- first item",
      "- second item",
      "",
      "| Name | Value |",
      "|------|-------|",
      "| Alpha | 42 |",
      "",
      "```",
      "const answer = 42;",
      "```",
    ].join("\n");
    const { body, out } = await converted(utf8(md), "summary.md", "pdf", "marked+mupdf-html");
    expect(body.metadata.source_format).toBe("md");
    // NFKC: MuPDF sets "fi" as its ligature glyph, which pdf-lib reads as U+FB01.
    const text = squash((await pageTexts(out)).join("").normalize("NFKC"));
    for (const s of ["Annual Summary", "bold words", "italic words", "first item", "second item", "Alpha", "42", "const answer = 42;"])
      expect(text).toContain(squash(s));
    expect(text).not.toContain("**");
    expect(text).not.toContain("|---");
    const fonts = (await embeddedFonts(out)).join(" ");
    expect(fonts).toMatch(/Bold/);
    expect(fonts).toMatch(/Italic|Oblique/);
    expect(fonts).toMatch(/Courier|Mono/i);
    expect(body.quality_score).toBeGreaterThanOrEqual(0.95);
  });
});
