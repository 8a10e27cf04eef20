import type { PDFObject } from "mupdf";
import type { PDFDocument } from "../core/document";
import type { Mupdf } from "../core/loader";
import { withMupdfLog } from "../core/log";

// A recovered file can still hold streams whose data does not decode (a
// fuzzed ASCII85 run, a truncated Flate stream). MuPDF keeps them as they
// are, and `qpdf --check` then reports the file as damaged. Each stream's
// general-purpose filters (the ones qpdf decodes when it checks) are decoded
// once; if MuPDF complains:
//   - an image is replaced by a 1x1 mid-grey image: it still fills the same
//     box on the page (an image is drawn into the unit square, whatever its
//     size), so the page keeps its layout and shows where the picture was,
//     and no half-decoded pixels of the wrong size are left for viewers;
//   - any other stream is replaced by what did decode, stored unfiltered
//     (the writer compresses it).
// Image codecs (DCT, JPX, JBIG2, CCITT) are not decoded for the check: qpdf
// does not decode them either, and a viewer shows what it can.

const GENERAL_FILTERS = new Set(["FlateDecode", "Fl", "LZWDecode", "LZW", "ASCII85Decode", "A85", "ASCIIHexDecode", "AHx", "RunLengthDecode", "RL"]);
// A Flate bomb can expand a small stream without bound; only streams up to
// this raw size are decoded for the check.
const MAX_RAW_BYTES = 8 * 1024 * 1024;
const GREY = new Uint8Array([0x80]);

export interface SalvageCount {
  /** Non-image streams replaced by what decoded. */
  streams: number;
  /** Undecodable images replaced by a grey placeholder. */
  images: number;
}

function filterNames(ref: PDFObject): string[] | null {
  const f = ref.get("Filter");
  if (f.isNull()) return [];
  if (f.isName()) return [f.asName()];
  if (!f.isArray()) return null;
  const names: string[] = [];
  for (let i = 0; i < f.length; i++) {
    if (!f.get(i).isName()) return null;
    names.push(f.get(i).asName());
  }
  return names;
}

/** Decodes the stream through MuPDF; the data, or null when MuPDF failed or complained. */
function decodeQuietly(mupdf: Mupdf, ref: PDFObject): { data: Uint8Array | null; clean: boolean } {
  const { result, messages } = withMupdfLog(mupdf, () => {
    try {
      const buf = ref.readStream();
      const data = buf.asUint8Array().slice();
      buf.destroy();
      return data;
    } catch {
      return null;
    }
  });
  return { data: result, clean: result !== null && messages.length === 0 };
}

/**
 * Whether the general-purpose filters in front of an image codec decode
 * ([/FlateDecode /DCTDecode]: the Flate layer). The filter list is cut to
 * that prefix for the check and put back afterwards.
 */
function prefixDecodes(mupdf: Mupdf, doc: PDFDocument, ref: PDFObject, names: string[], general: number): boolean {
  const filter = ref.get("Filter");
  const parms = ref.get("DecodeParms");
  const prefix = doc.newArray();
  for (let i = 0; i < general; i++) prefix.push(doc.newName(names[i]));
  ref.put("Filter", prefix);
  if (parms.isArray()) {
    const cut = doc.newArray();
    for (let i = 0; i < general; i++) cut.push(parms.get(i));
    ref.put("DecodeParms", cut);
  }
  try {
    return decodeQuietly(mupdf, ref).clean;
  } finally {
    ref.put("Filter", filter);
    if (parms.isArray()) ref.put("DecodeParms", parms);
  }
}

function isImage(ref: PDFObject): boolean {
  const subtype = ref.get("Subtype");
  return subtype.isName() && subtype.asName() === "Image";
}

/** Puts a 1 x 1 mid-grey picture in an unreadable image's place (its size on the page is the content stream's). */
export function replaceWithGrey(doc: PDFDocument, ref: PDFObject): void {
  for (const key of ["Filter", "DecodeParms", "Decode", "SMask", "SMaskInData", "Mask", "ImageMask", "Intent", "Alternates", "Interpolate"]) ref.delete(key);
  ref.put("Width", 1);
  ref.put("Height", 1);
  ref.put("BitsPerComponent", 8);
  ref.put("ColorSpace", doc.newName("DeviceGray"));
  ref.writeStream(GREY);
}

type Fix = "stream" | "image" | null;

function checkStream(mupdf: Mupdf, doc: PDFDocument, ref: PDFObject): Fix {
  const names = filterNames(ref);
  if (!names || names.length === 0) return null;
  const general = names.findIndex((n) => !GENERAL_FILTERS.has(n));
  const generalCount = general < 0 ? names.length : general;
  // Only a run of general filters first is checked (qpdf stops at the first codec too).
  if (generalCount === 0 || names.slice(generalCount).some((n) => GENERAL_FILTERS.has(n))) return null;
  const raw = ref.readRawStream();
  const rawLength = raw.getLength();
  raw.destroy();
  if (rawLength > MAX_RAW_BYTES) return null;
  if (isImage(ref)) {
    const decodes = generalCount === names.length ? decodeQuietly(mupdf, ref).clean : prefixDecodes(mupdf, doc, ref, names, generalCount);
    if (decodes) return null;
    replaceWithGrey(doc, ref);
    return "image";
  }
  if (generalCount !== names.length) return null; // a non-image behind a codec: not ours to judge
  const { data, clean } = decodeQuietly(mupdf, ref);
  if (clean) return null;
  ref.delete("Filter");
  ref.delete("DecodeParms");
  ref.writeStream(data ?? new Uint8Array(0));
  return "stream";
}

/** Rewrites undecodable streams; answers how many of each kind. `budget` bounds the objects examined. */
export function salvageStreams(mupdf: Mupdf, doc: PDFDocument, budget: number): SalvageCount {
  const count: SalvageCount = { streams: 0, images: 0 };
  const objects = Math.min(doc.countObjects(), budget);
  for (let num = 1; num < objects; num++) {
    const ref = doc.newIndirect(num);
    try {
      if (!ref.isStream()) continue;
      const fix = checkStream(mupdf, doc, ref);
      if (fix === "image") count.images++;
      else if (fix === "stream") count.streams++;
    } catch {
      // an object MuPDF cannot even load is dropped or kept by the writer
    }
  }
  return count;
}
