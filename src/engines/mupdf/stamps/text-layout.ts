import { EngineError } from "../../errors";
import { codePoints, drawable, ensureStampFonts } from "../core/fonts";
import type { Mupdf } from "../core/loader";
import type { PDFDocument } from "../core/document";
import type { Box } from "./placement";

export interface TextStyle {
  /** Points. */
  fontSize: number;
  /** `#rrggbb`. */
  color: string;
}

/** A PDF with one page per label and, per page, the label's ink box (PDF space, y up). */
export interface LabelSheet {
  doc: PDFDocument;
  boxes: Box[];
}

// Widest page PDF viewers accept (PDF 1.7 limit is 14,400 units).
const SHEET_WIDTH = 14_400;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Lays out labels with MuPDF's HTML engine, which picks a font per script
 * (Base-14, built-in CJK, the shipped Arabic), shapes with HarfBuzz and
 * orders bidirectional text, then writes them through MuPDF's PDF writer:
 * the result is real text with embedded, subset Type0 fonts and ToUnicode
 * maps, so a stamp made from it is vector and selectable.
 */
export function layoutLabels(mupdf: Mupdf, labels: readonly string[], style: TextStyle): LabelSheet {
  ensureStampFonts(mupdf);
  const lines = Math.max(...labels.map((l) => l.split("\n").length));
  const height = Math.ceil((lines + 2) * style.fontSize * 1.6 + 72);
  const html = labelsHtml(labels, style);
  const source = mupdf.Document.openDocument(new TextEncoder().encode(html), "text/html");
  try {
    source.layout(SHEET_WIDTH, height, style.fontSize);
    if (source.countPages() !== labels.length) throw new EngineError("invalid_input", "The text could not be laid out on a single sheet; use fewer lines.");
    const { bytes, boxes, missing } = writeSheet(mupdf, source, labels.length, height);
    if (missing.size) {
      throw new EngineError(
        "invalid_input",
        `No bundled font can draw ${codePoints([...missing].slice(0, 5))}; supported are Latin, Greek, Cyrillic, Arabic, Chinese, Japanese and Korean.`,
      );
    }
    const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
    if (!doc) throw new Error("MuPDF's PDF writer produced no PDF");
    // Embed only the glyphs used: the CJK fallback font alone is 3.6 MB.
    doc.subsetFonts();
    return { doc, boxes };
  } finally {
    source.destroy();
  }
}

function labelsHtml(labels: readonly string[], style: TextStyle): string {
  const css = [
    "@page{margin:0}",
    "body{margin:0;padding:0}",
    `p{margin:0;padding:0;font-family:sans-serif;font-size:${style.fontSize}pt;line-height:1.2;color:${style.color};white-space:pre}`,
    // MuPDF's HTML engine honours page-break-after, not page-break-before.
    ".brk{page-break-after:always}",
  ].join("");
  const last = labels.length - 1;
  const body = labels.map((l, i) => `<p${i < last ? ' class="brk"' : ""}>${escapeHtml(l)}</p>`).join("");
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${css}</style></head><body>${body}</body></html>`;
}

type HtmlDocument = ReturnType<Mupdf["Document"]["openDocument"]>;
type Writer = InstanceType<Mupdf["DocumentWriter"]>;

/** Writes every laid-out page through MuPDF's PDF writer into one PDF. */
function writeSheet(mupdf: Mupdf, source: HtmlDocument, pages: number, height: number): { bytes: Uint8Array; boxes: Box[]; missing: Set<string> } {
  const buffer = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(buffer, "pdf", "");
  try {
    const boxes: Box[] = [];
    const missing = new Set<string>();
    for (let i = 0; i < pages; i++) boxes.push(writeLabelPage(source, writer, i, height, missing));
    writer.close();
    return { bytes: buffer.asUint8Array().slice(), boxes, missing };
  } finally {
    writer.destroy();
    buffer.destroy();
  }
}

/**
 * Writes HTML page `index` as a PDF page and answers its ink box in PDF
 * space. Characters the chosen font has no glyph for are collected in
 * `missing`: they would print as nothing.
 */
function writeLabelPage(source: HtmlDocument, writer: Writer, index: number, height: number, missing: Set<string>): Box {
  const page = source.loadPage(index);
  try {
    const device = writer.beginPage([0, 0, SHEET_WIDTH, height]);
    page.run(device, [1, 0, 0, 1, 0, 0]);
    writer.endPage();
    device.destroy();
    const text = page.toStructuredText("preserve-whitespace");
    const ink: { box: Box | null } = { box: null };
    text.walk({
      onChar(c, _origin, font) {
        if (!drawable(font, c)) missing.add(c);
      },
      beginLine(b) {
        const a = ink.box;
        ink.box = a ? [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])] : [b[0], b[1], b[2], b[3]];
      },
    });
    text.destroy();
    const [x0, y0, x1, y1] = ink.box ?? [0, 0, 0, 0];
    // Structured text is top-left based; the written page is y-up.
    return [x0, height - y1, x1, height - y0];
  } finally {
    page.destroy();
  }
}
