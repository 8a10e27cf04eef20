import { describe, expect, it } from "vitest";
import { markdownFlow, textFlow } from "../../../src/engines/convert/text-pdf";
import { ROWS_PER_PAGE, textShape } from "../../../src/engines/convert/text-bounds";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { problem, withKey } from "../../support/http";
import { mupdfTexts, withMupdf } from "../../support/mupdf";
import { pdfStructure } from "../../support/pdf-read";
import { convert, converted } from "./support";

// Issue #31: text sources are bounded before they are decoded, and long
// ones are laid out a stretch at a time with page breaks where one whole
// document would put them.

const utf8 = (s: string) => new TextEncoder().encode(s);
const MB = 1_000_000;

/** Pages and each page's first line when the flow is laid out as one HTML document by the test-only MuPDF: the reference pagination. */
function wholeLayout(flow: { head: string; blocks: Iterable<string> }): Promise<string[]> {
  const html = `<!DOCTYPE html><html><head>${flow.head}</head><body>${[...flow.blocks].join("")}</body></html>`;
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(utf8(html), "text/html");
    try {
      doc.layout(595.28, 841.89, 11);
      const firsts: string[] = [];
      for (let i = 0; i < doc.countPages(); i++) {
        const page = doc.loadPage(i);
        const st = page.toStructuredText("preserve-whitespace");
        firsts.push(firstLine(st.asText()));
        st.destroy();
        page.destroy();
      }
      return firsts;
    } finally {
      doc.destroy();
    }
  });
}

const firstLine = (pageText: string) => pageText.split("\n").find((l) => l.trim() !== "") ?? "";

async function refusedFast(bytes: Uint8Array, name: string) {
  const acct = await accountWithKey({ credits: 100 });
  const started = Date.now();
  const { res } = await convert(bytes, name, "pdf", {}, withKey(acct.key));
  const ms = Date.now() - started;
  const body = await problem(res);
  expect(res.headers.get("Content-Type")).toMatch(/application\/problem\+json/);
  expect(res.headers.get("X-Credits-Charged")).toBe("0");
  expect(await balanceOf(acct.token)).toBe(100);
  return { status: res.status, body, ms };
}

describe("Convert document: text sources are bounded before they are laid out", () => {
  it("counts lines and rows in one pass over the bytes, in UTF-8, UTF-16 and with CRLF", () => {
    expect(textShape(utf8("a\nb\r\nc\rd"))).toMatchObject({ lines: 4, rows: 4, pages: 1, stopped: false });
    expect(textShape(utf8("x".repeat(401)))).toMatchObject({ lines: 1, rows: 3 });
    // Multi-byte characters count once: 300 "é" are 600 bytes, two rows.
    expect(textShape(utf8("é".repeat(300))).rows).toBe(2);
    const le = new Uint8Array([0xff, 0xfe, 0x61, 0, 0x0a, 0, 0x62, 0]);
    expect(textShape(le)).toMatchObject({ lines: 2, rows: 2 });
    expect(textShape(utf8("\n".repeat(ROWS_PER_PAGE * 10 - 1))).pages).toBe(10);
    // Counting stops once the bound is certain.
    expect(textShape(new Uint8Array(1_000_000).fill(0x0a), 10)).toMatchObject({ stopped: true, rows: ROWS_PER_PAGE * 10 + 1 });
  });

  it("30 MB of newlines is 422 too_many_pages at once, nothing charged", async () => {
    const { status, body, ms } = await refusedFast(new Uint8Array(30 * MB).fill(0x0a), "newlines.txt");
    expect(status).toBe(422);
    expect(body.code).toBe("too_many_pages");
    expect(body.detail).toMatch(/more than 2000 pages of A4: its first 96001 line\(s\) already fill/);
    expect(ms).toBeLessThan(5000);
  });

  it("30 MB of one line is 422 too_many_pages at once, nothing charged", async () => {
    const { status, body, ms } = await refusedFast(new Uint8Array(30 * MB).fill(0x61), "one-line.txt");
    expect(status).toBe(422);
    expect(body.code).toBe("too_many_pages");
    expect(body.detail).toMatch(/its first 1 line\(s\) already fill at least 96001 rows/);
    expect(ms).toBeLessThan(5000);
  });

  it("a text that fits 2,000 pages but passes the byte cap, and Markdown past 1 MiB, are refused too", async () => {
    const wide = await refusedFast(utf8(`${"w".repeat(190)}\n`.repeat(60_000)), "wide.txt");
    expect(wide.status).toBe(422);
    expect(wide.body.detail).toMatch(/at most 10 MiB/);
    const md = await refusedFast(utf8("Some *words* here.\n\n".repeat(60_000)), "long.md");
    expect(md.status).toBe(422);
    expect(md.body.detail).toMatch(/Markdown file .* at most 1 MiB/);
  });

  it("a long text is paged exactly as one document would be: same page count, same first line on every page", async () => {
    // Short lines, wrapped paragraphs and blank lines, over several chunks of the layout.
    const lines = Array.from({ length: 4200 }, (_, i) =>
      i % 37 === 0 ? "" : i % 11 === 0 ? `Paragraph ${i}: ${"a wrapped sentence that goes on and on, ".repeat(9)}` : `Line ${i}`,
    );
    const text = lines.join("\n");
    const { body, out } = await converted(utf8(text), "long.txt", "pdf", "mupdf-html");
    const reference = await wholeLayout(textFlow(text));
    expect((await pdfStructure(out)).pages).toBe(reference.length);
    expect(reference.length).toBeGreaterThan(80);
    expect((await mupdfTexts(out)).map(firstLine)).toEqual(reference);
    expect(body.quality_score).toBeGreaterThanOrEqual(0.99);
  }, 180_000);

  it("long Markdown is paged exactly as one document would be", async () => {
    const section = (i: number) =>
      [
        `## Section ${i}`,
        `Some **bold** and *italic* words, ${"then more words in the paragraph ".repeat(6)}`,
        "- one\n- two\n- three",
        "```\ncode line\n```",
      ].join("\n\n");
    const md = Array.from({ length: 700 }, (_, i) => section(i)).join("\n\n");
    const { out } = await converted(utf8(md), "long.md", "pdf", "marked+mupdf-html");
    const reference = await wholeLayout(markdownFlow(md));
    expect(reference.length).toBeGreaterThan(60);
    expect((await mupdfTexts(out)).map(firstLine)).toEqual(reference);
  }, 180_000);
});
