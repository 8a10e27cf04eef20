import type { PDFObject } from "mupdf";
import { type PDFDocument, withPdf } from "../core/document";
import { replaceWithGrey } from "./streams";
import { SAVE } from "../core/save-options";

// A stream's /Filter must be a name or an array of names (ISO 32000-1,
// 7.3.8.2). Damaged files carry others: the filter as a string
// "(CCITTFaxDecode)", an array with a number in it. MuPDF keeps such an
// entry as it is (it reads the data unfiltered), so its repaired file still
// fails `qpdf --check` ("stream filter type is not name or array") and qpdf
// will not linearize it. Where every entry names a standard filter, the
// entry is rewritten as names, the reading qpdf and Ghostscript take; where
// one cannot be read, nothing can decode the data, so an image becomes the
// same 1x1 grey placeholder Repair uses for undecodable images (it keeps its
// box on the page) and any other stream is emptied.

const STANDARD_FILTERS = new Set([
  "ASCIIHexDecode",
  "ASCII85Decode",
  "LZWDecode",
  "FlateDecode",
  "RunLengthDecode",
  "CCITTFaxDecode",
  "JBIG2Decode",
  "DCTDecode",
  "JPXDecode",
  "Crypt",
  // The abbreviations of inline images (Table 94), which some writers use in streams too.
  "AHx",
  "A85",
  "LZW",
  "Fl",
  "RL",
  "CCF",
  "DCT",
]);
// MuPDF writes "/Filter/Name" or "/Filter[/A/B]"; anything else after the key
// (or an indirect reference, resolved below) is worth opening the file for.
const SOUND = /^\s*(?:\/[^\s/[\]()<>{}%]+|\[(?:\s*\/[^\s/[\]()<>{}%]+)*\s*\])/;
const KEY = Array.from("/Filter", (c) => c.charCodeAt(0));
/** What follows a key is read from a window this long: a filter array longer than that is suspect, which costs only a parse. */
const WINDOW = 256;
const OBJECT_BUDGET = 1_000_000;

export interface MendedFilters {
  data: Uint8Array;
  /** Entries rewritten as names. */
  renamed: number;
  /** Images whose filter could not be read, replaced by a grey placeholder. */
  images: number;
  /** Other streams whose filter could not be read, emptied. */
  streams: number;
}

/** Whether some "/Filter" key in the bytes is followed by anything but a name or an array of names; no string of the whole file is made. */
function hasSuspectFilter(bytes: Uint8Array): boolean {
  const latin1 = new TextDecoder("latin1");
  for (let at = bytes.indexOf(KEY[0]); at >= 0; at = bytes.indexOf(KEY[0], at + 1)) {
    if (!KEY.every((c, j) => bytes[at + j] === c)) continue;
    const next = at + KEY.length;
    if (/[A-Za-z0-9]/.test(String.fromCharCode(bytes[next] ?? 0))) continue; // a longer key such as /FilterX
    if (!SOUND.test(latin1.decode(bytes.subarray(next, next + WINDOW)))) return true;
  }
  return false;
}

/** One filter entry as a standard filter's name, or null. */
function filterName(entry: PDFObject): string | null {
  const text = entry.isName() ? entry.asName() : entry.isString() ? entry.asString().trim().replace(/^\//, "") : null;
  return text !== null && STANDARD_FILTERS.has(text) ? text : null;
}

const isNameList = (f: PDFObject) => f.isName() || (f.isArray() && Array.from({ length: f.length }, (_, i) => f.get(i)).every((e) => e.isName()));

type Mend = "renamed" | "images" | "streams";

function mendStream(doc: PDFDocument, ref: PDFObject): Mend | null {
  const filter = ref.get("Filter");
  if (filter.isNull() || isNameList(filter)) return null;
  const entries = filter.isArray() ? Array.from({ length: filter.length }, (_, i) => filter.get(i)) : [filter];
  const names = entries.map(filterName);
  if (names.length > 0 && names.every((n) => n !== null)) {
    const list = doc.newArray();
    for (const n of names) list.push(doc.newName(n as string));
    ref.put("Filter", names.length === 1 ? doc.newName(names[0] as string) : list);
    return "renamed";
  }
  const subtype = ref.get("Subtype");
  if (subtype.isName() && subtype.asName() === "Image") {
    replaceWithGrey(doc, ref);
    return "images";
  }
  ref.delete("Filter");
  ref.delete("DecodeParms");
  ref.writeStream(new Uint8Array(0));
  return "streams";
}

/** The file with every malformed /Filter mended, or null when it has none (the usual case: one text scan, no parse). */
export async function mendFilterEntries(bytes: Uint8Array): Promise<MendedFilters | null> {
  if (!hasSuspectFilter(bytes)) return null;
  return withPdf(bytes, (doc) => {
    const count: Record<Mend, number> = { renamed: 0, images: 0, streams: 0 };
    const objects = Math.min(doc.countObjects(), OBJECT_BUDGET);
    for (let num = 1; num < objects; num++) {
      const ref = doc.newIndirect(num);
      try {
        if (!ref.isStream()) continue;
        const mend = mendStream(doc, ref);
        if (mend) count[mend]++;
      } catch {
        // an object MuPDF cannot load is the writer's to drop, as in the first repair
      }
    }
    if (count.renamed + count.images + count.streams === 0) return null;
    const buf = doc.saveToBuffer(SAVE.repaired);
    try {
      return { data: buf.asUint8Array().slice(), ...count };
    } finally {
      buf.destroy();
    }
  });
}
