import type { PDFDocument } from "../../mupdf/core/document";
import type { Mupdf } from "../../mupdf/core/loader";
import { apply, concat, invert, type Mat } from "../../mupdf/stamps/placement";
import { appendContents, saveStateStream } from "../../mupdf/stamps/stamp";
import type { PlacedWord, Point } from "./place";

// The invisible text layer of a scanned page: each word drawn in render mode
// 3 (neither filled nor stroked: ISO 32000-1, 9.3.6) with Helvetica, whose
// advance widths MuPDF gives us, through a text matrix that stretches the
// word's advance to its box and stands it on its baseline. The page's own
// content streams are left as they are (not even re-encoded): a "q" stream
// goes before them and the layer after a "Q", so whatever graphics state
// they leave behind cannot move the words.

type PDFObject = ReturnType<PDFDocument["newNull"]>;
type PDFPage = ReturnType<PDFDocument["loadPage"]>;
type Font = InstanceType<Mupdf["Font"]>;

export interface LayerFont {
  font: Font;
  /** The Type0 font object (Identity-H, with ToUnicode) added once per document. */
  ref: PDFObject;
  /** The shared "q" stream. */
  save: PDFObject;
}

export function layerFont(mupdf: Mupdf, doc: PDFDocument): LayerFont {
  const font = new mupdf.Font("Helvetica");
  return { font, ref: doc.addFont(font), save: saveStateStream(doc) };
}

/** Writes the words on the page; answers those written (the ones with a glyph for every character). */
export function writeTextLayer(doc: PDFDocument, page: PDFPage, words: PlacedWord[], font: LayerFont): PlacedWord[] {
  const [bx, by] = page.getBounds();
  // Page points (y down from the page box's corner) to the page's user space, whatever its /Rotate and boxes.
  const toUser = invert(concat(page.getTransform(), [1, 0, 0, 1, -bx, -by]));
  const user = (p: Point) => apply(toUser, p[0], p[1]);
  const space = font.font.encodeCharacter(0x20);
  const ops: string[] = [];
  const written: PlacedWord[] = [];
  for (const word of words) {
    const glyphs = [...word.text].map((c) => font.font.encodeCharacter(c.codePointAt(0) ?? 0));
    if (!glyphs.length || glyphs.some((g) => g <= 0)) continue;
    const advance = glyphs.reduce((n, g) => n + font.font.advanceGlyph(g, 0), 0);
    if (advance <= 0) continue;
    const [o, e, t] = [user(word.origin), user(word.end), user(word.top)];
    const tm: Mat = [(e[0] - o[0]) / advance, (e[1] - o[1]) / advance, t[0] - o[0], t[1] - o[1], o[0], o[1]];
    // A space after each word but a line's last, inside the gap to the next, so extractors see word breaks.
    const codes = word.lineEnd ? glyphs : [...glyphs, space];
    ops.push(`${tm.map(num).join(" ")} Tm <${codes.map(hex4).join("")}> Tj`);
    written.push(word);
  }
  if (!ops.length) return written;
  const name = addFontResource(doc, page.getObject(), font.ref);
  appendContents(doc, page.getObject(), font.save, ["Q", "q", "BT", "3 Tr", `/${name} 1 Tf`, ...ops, "ET", "Q"].join("\n"));
  return written;
}

const num = (v: number): string => (Math.abs(v) < 1e-9 ? "0" : String(Math.round(v * 10_000) / 10_000));
const hex4 = (g: number): string => g.toString(16).padStart(4, "0");

/** The page gets its own shallow copy of its (possibly inherited or shared) resources with the font added under a free name. */
function addFontResource(doc: PDFDocument, pageObj: PDFObject, ref: PDFObject): string {
  const resources = shallowCopy(doc, pageObj.getInheritable("Resources"));
  const fonts = shallowCopy(doc, resources.get("Font"));
  let name = "DocapiOcr";
  for (let i = 1; !fonts.get(name).isNull(); i++) name = `DocapiOcr${i}`;
  fonts.put(name, ref);
  resources.put("Font", fonts);
  pageObj.put("Resources", resources);
  return name;
}

function shallowCopy(doc: PDFDocument, dict: PDFObject): PDFObject {
  const copy = doc.newDictionary();
  if (dict.isDictionary()) dict.forEach((value, key) => copy.put(key, value));
  return copy;
}
