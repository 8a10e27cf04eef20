import type { PDFObject } from "mupdf";
import type { PDFDocument } from "./document";
import type { Mupdf } from "./loader";
import { withMupdfLog } from "./log";

// A recovered file can still hold streams whose data does not decode (a
// fuzzed ASCII85 run, a truncated Flate stream). MuPDF keeps them as they
// are, and `qpdf --check` then reports the file as damaged. Each stream with
// general-purpose filters is decoded once; if MuPDF complains, the stream is
// replaced by what did decode, stored unfiltered (the writer compresses it).
// Image codecs (DCT, JPX, JBIG2, CCITT) are left alone: qpdf does not decode
// them either, and a viewer shows what it can.

const GENERAL_FILTERS = new Set(["FlateDecode", "Fl", "LZWDecode", "LZW", "ASCII85Decode", "A85", "ASCIIHexDecode", "AHx", "RunLengthDecode", "RL"]);
// A Flate bomb can expand a small stream without bound; only streams up to
// this raw size are decoded for the check.
const MAX_RAW_BYTES = 8 * 1024 * 1024;

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

function checkStream(mupdf: Mupdf, ref: PDFObject): boolean {
  const names = filterNames(ref);
  if (!names || names.length === 0 || !names.every((n) => GENERAL_FILTERS.has(n))) return false;
  const raw = ref.readRawStream();
  const rawLength = raw.getLength();
  raw.destroy();
  if (rawLength > MAX_RAW_BYTES) return false;
  const { result: decoded, messages } = withMupdfLog(mupdf, () => {
    try {
      return ref.readStream();
    } catch {
      return null;
    }
  });
  if (decoded && messages.length === 0) {
    decoded.destroy();
    return false;
  }
  ref.delete("Filter");
  ref.delete("DecodeParms");
  ref.writeStream(decoded ?? new Uint8Array(0));
  decoded?.destroy();
  return true;
}

/** Rewrites undecodable general-purpose streams; returns how many. `budget` bounds the objects examined. */
export function salvageStreams(mupdf: Mupdf, doc: PDFDocument, budget: number): number {
  let fixed = 0;
  const count = Math.min(doc.countObjects(), budget);
  for (let num = 1; num < count; num++) {
    const ref = doc.newIndirect(num);
    try {
      if (ref.isStream() && checkStream(mupdf, ref)) fixed++;
    } catch {
      // an object MuPDF cannot even load is dropped or kept by the writer
    }
  }
  return fixed;
}
