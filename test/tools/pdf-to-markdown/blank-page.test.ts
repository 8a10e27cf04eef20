import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, balanceOf } from "../../support/accounts";
import { file, postForm, withKey } from "../../support/http";
import { pageTexts } from "../../support/pdf-text";
import { layoutPdf, scanOf } from "../../support/pdf.mjs";
import { type MarkdownBody, PATH } from "./client";

// Issue #32: a PDF that says nothing is a valid document whose Markdown is
// empty. PDF to Markdown has no "no text" error (the 422 for no extractable
// text is AI extract's; docs/tools/pdf-to-markdown.md), so a blank page, and a scan on which
// OCR reads nothing, answer 200 with empty Markdown, billed 40 like any
// success ("a call is charged only if it succeeds").

const enc = (s: string) => new TextEncoder().encode(s);

/** A one-page PDF written by hand: no producer library decides what a blank page holds. */
function handPdf(pageExtra: string, objs: string[] = []): Uint8Array {
  const bodies = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ${pageExtra} >>`,
    ...objs,
  ];
  let out = "%PDF-1.7\n";
  const offsets: number[] = [];
  bodies.forEach((b, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${b}\nendobj\n`;
  });
  const xref = out.length;
  const rows = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  out += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return enc(out);
}

async function blanks(): Promise<Record<string, Uint8Array>> {
  const spaces = await PDFDocument.create();
  const font = await spaces.embedFont(StandardFonts.Helvetica);
  const page = spaces.addPage([595, 842]);
  page.drawText("     ", { x: 72, y: 700, font, size: 11 });
  page.drawRectangle({ x: 0, y: 0, width: 595, height: 842, color: rgb(1, 1, 1) });
  page.drawLine({ start: { x: 72, y: 400 }, end: { x: 500, y: 400 }, thickness: 0.75 });
  return {
    "pdf-lib blank page": await layoutPdf([[]]),
    "no Contents, no Resources": handPdf(""),
    "an empty content stream": handPdf("/Resources << >> /Contents 4 0 R", ["<< /Length 0 >>\nstream\n\nendstream"]),
    "white fill, a rule and spaces": await spaces.save(),
  };
}

async function convert(pdf: Uint8Array, key: string) {
  const res = await postForm(PATH, { file: file(pdf, "blank.pdf") }, withKey(key));
  const body = (await res.json()) as MarkdownBody;
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(res.headers.get("X-Credits-Charged")).toBe("40");
  return body;
}

describe("PDF to Markdown: documents that say nothing", () => {
  it("a blank page answers 200 with empty Markdown, pages 1, word_count 0, billed 40", async () => {
    const acct = await accountWithKey({ credits: 1_000 });
    const cases = await blanks();
    for (const [name, pdf] of Object.entries(cases)) {
      // The fixture really is blank: the suite's own reader finds no text on it.
      expect((await pageTexts(pdf)).join("").trim(), name).toBe("");
      const body = await convert(pdf, acct.key);
      expect(body, name).toEqual({
        success: true,
        markdown: "",
        engine: "layout",
        pages: 1,
        word_count: 0,
        headings: 0,
        pages_without_text: [],
        credits_charged: 40,
      });
    }
    expect(await balanceOf(acct.token)).toBe(1_000 - 40 * Object.keys(cases).length);
  });

  it("a scan on which OCR reads nothing answers 200 with empty Markdown through OCR, billed 40", async () => {
    const acct = await accountWithKey({ credits: 500 });
    const scan = await scanOf(await layoutPdf([[{ image: [100, 100, 300, 200] }]]), { dpi: 100 });
    const body = await convert(scan, acct.key);
    expect(body).toEqual({ success: true, markdown: "", engine: "ocr", pages: 1, word_count: 0, headings: 0, pages_without_text: [1], credits_charged: 40 });
    expect(await balanceOf(acct.token)).toBe(460);
  });
});
