import { EngineError } from "../errors";
import { drawable, ensureStampFonts } from "./fonts";
import { SAVE } from "./save-options";
import type { Mupdf } from "./loader";

// Paginated documents from HTML with MuPDF's own HTML engine (the one the
// stamps use, text-layout.ts): no browser, fonts per script (Base-14, the
// built-in CJK fallback, the shipped Arabic), HarfBuzz shaping and bidi.
// TXT and Markdown conversion lay out through here; real web pages, with
// scripts and modern CSS, go to the browser engine instead.

export interface PagedPdf {
  pdf: Uint8Array;
  pages: number;
  /** Characters no shipped font can draw (they print as nothing). */
  missing: string[];
}

/** A4 in points: the default page of documents made from plain text. */
export const A4: [number, number] = [595.28, 841.89];

/** Lays `html` out on pages of `size` (points, margins from its own CSS @page) and writes a PDF with subset fonts. */
export function layoutHtmlPdf(mupdf: Mupdf, html: string, size: [number, number] = A4, fontSize = 11): PagedPdf {
  ensureStampFonts(mupdf);
  const source = mupdf.Document.openDocument(new TextEncoder().encode(html), "text/html");
  const buffer = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(buffer, "pdf", "");
  const missing = new Set<string>();
  try {
    source.layout(size[0], size[1], fontSize);
    const pages = source.countPages();
    for (let i = 0; i < pages; i++) {
      const page = source.loadPage(i);
      const device = writer.beginPage(page.getBounds());
      page.run(device, mupdf.Matrix.identity);
      writer.endPage();
      collectMissing(page.toStructuredText("preserve-whitespace"), missing);
      page.destroy();
    }
    writer.close();
    const written = buffer.asUint8Array().slice();
    return { pdf: subset(mupdf, written), pages, missing: [...missing] };
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError("invalid_input", `The document could not be laid out: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    writer.destroy();
    buffer.destroy();
    source.destroy();
  }
}

type StructuredText = ReturnType<InstanceType<Mupdf["PDFPage"]>["toStructuredText"]>;

function collectMissing(text: StructuredText, missing: Set<string>): void {
  text.walk({
    onChar(c, _origin, font) {
      if (!drawable(font, c)) missing.add(c);
    },
  });
  text.destroy();
}

/** Embeds only the glyphs used: the CJK fallback font alone is 3.6 MB. */
function subset(mupdf: Mupdf, bytes: Uint8Array): Uint8Array {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  if (!doc) throw new Error("MuPDF's PDF writer produced no PDF");
  try {
    doc.subsetFonts();
    const out = doc.saveToBuffer(SAVE.converted);
    try {
      return out.asUint8Array().slice();
    } finally {
      out.destroy();
    }
  } finally {
    doc.destroy();
  }
}
