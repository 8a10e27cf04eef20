import type { PDFWidget } from "mupdf";
import type { PDFDocument } from "../core/document";
import type { Mupdf } from "../core/loader";
import { inherited } from "./fields";

type PDFObject = ReturnType<PDFDocument["newNull"]>;

// MuPDF 1.28 draws a list box from the widget's own /Opt, which is empty
// when the widget is a kid of its field (as pdf-lib and most producers
// write it), and never marks the chosen rows. So list boxes get their
// appearance here: every option from the top row, the chosen ones on the
// selection colour viewers use (Acrobat's).
const SELECTED = "0.6 0.75 0.85 rg";
const DEFAULT_SIZE = 12;
const MIN_SIZE = 4;
const LINE = 1.15;
const INSET = 2;

/** Makes the Helvetica every list appearance of one call shares, once. */
export function listFont(mupdf: Mupdf, doc: PDFDocument): () => PDFObject {
  let font: PDFObject | undefined;
  return () => {
    font ??= doc.addSimpleFont(new mupdf.Font("Helvetica"), "Latin");
    return font;
  };
}

export function listBoxAppearance(doc: PDFDocument, widget: PDFWidget, labels: readonly string[], chosen: ReadonlySet<number>, font: () => PDFObject): void {
  const rect = widget.getObject().get("Rect");
  const n = (i: number) => rect.get(i).asNumber();
  const width = Math.abs(n(2) - n(0));
  const height = Math.abs(n(3) - n(1));
  // Rows shrink (not below MIN_SIZE) until every option fits: a printed or flattened list cannot scroll.
  const fits = (height - 2 * INSET) / (LINE * Math.max(1, labels.length));
  const size = Math.max(MIN_SIZE, Math.min(fontSize(widget.getObject()), fits));
  const line = size * LINE;
  const visible = Math.max(1, Math.floor((height - 2 * INSET) / line));
  // Scroll so the first chosen row shows, as a viewer does when it opens the form.
  const firstChosen = Math.min(...chosen, labels.length);
  const top = firstChosen >= visible ? firstChosen : 0;
  const ops = [`/Tx BMC q ${INSET / 2} ${INSET / 2} ${width - INSET} ${height - INSET} re W n`];
  const rows = labels.slice(top, top + visible);
  rows.forEach((_label, k) => {
    if (!chosen.has(top + k)) return;
    const y = height - INSET - (k + 1) * line;
    ops.push(`${SELECTED} ${INSET / 2} ${fmt(y)} ${width - INSET} ${fmt(line)} re f`);
  });
  ops.push(`BT /Helv ${fmt(size)} Tf 0 g`);
  rows.forEach((label, k) => {
    const baseline = height - INSET - (k + 1) * line + (line - size) / 2 + size * 0.22;
    ops.push(`1 0 0 1 ${INSET} ${fmt(baseline)} Tm ${pdfString(label)} Tj`);
  });
  ops.push("ET Q EMC");
  const resources = doc.newDictionary();
  const fonts = doc.newDictionary();
  fonts.put("Helv", font());
  resources.put("Font", fonts);
  widget.setAppearance("N", null, [1, 0, 0, 1, 0, 0], [0, 0, width, height], resources, ops.join("\n"));
}

/** The size of the field's /DA ("/Helv 10 Tf"); 0 (auto) or none means the viewers' usual 12. */
function fontSize(widget: PDFObject): number {
  const da = inherited(widget, "DA");
  const m = da.isString() ? /(\d+(?:\.\d+)?)\s+Tf/.exec(da.asString()) : null;
  const size = m ? Number(m[1]) : 0;
  return size > 0 ? size : DEFAULT_SIZE;
}

const fmt = (v: number) => String(Math.round(v * 100) / 100);

/** A literal string in WinAnsi (the font's encoding); characters it lacks become "?". */
function pdfString(text: string): string {
  let out = "(";
  for (const ch of text) {
    const code = winAnsi(ch);
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${String.fromCharCode(code)}`;
    else if (code < 0x20 || code > 0x7e) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(code);
  }
  return `${out})`;
}

// WinAnsi's 0x80-0x9F differ from Latin-1 (ISO 32000-1, Annex D.2).
const CP1252 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

function winAnsi(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0x3f;
  const high = CP1252.indexOf(ch);
  if (high >= 0) return 0x80 + high;
  if ((cp >= 0x20 && cp < 0x7f) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return 0x3f;
}
