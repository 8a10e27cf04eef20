import type * as pkijs from "pkijs";
import { EngineError } from "../errors";
import { asEngineError, openPdfDocument } from "../mupdf/core/document";
import { loadMupdf } from "../mupdf/core/loader";
import { type CmsReport, unverifiedReport, verifyCms } from "./cms-verify";
import { at, signatureFields } from "./fields";
import { parsePdfDate } from "./pdf-syntax";

// Reads every signed signature field of a PDF and checks each signature
// against the file's own bytes: where its /ByteRange points, which revision
// it ends at, and what the CMS says about those bytes.

export interface SignatureReport extends CmsReport {
  field: string;
  filter: string | null;
  sub_filter: string | null;
  signing_time: string | null;
  reason: string | null;
  location: string | null;
  contact_info: string | null;
  byte_range: number[] | null;
  byte_range_covers_revision: boolean;
  modified_after_signing: boolean;
  /** Revisions (incremental updates) appended after the one this signature ends. */
  revisions_after: number;
  /** The DocMDP level when this signature certifies the document (1 no changes, 2 form filling and signing, 3 also annotations). */
  certification: number | null;
}

type Obj = ReturnType<ReturnType<typeof openPdfDocument>["getTrailer"]>;

const str = (o: Obj): string | null => (o.isString() ? o.asString() : null);
const name = (o: Obj): string | null => (o.isName() ? o.asName() : null);

/** Offsets just past each `%%EOF` (and its end-of-line): where each revision of the file ends. */
export function revisionEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  for (let i = bytes.indexOf(0x25); i !== -1 && i + 5 <= bytes.length; i = bytes.indexOf(0x25, i + 1)) {
    if (bytes[i + 1] !== 0x25 || bytes[i + 2] !== 0x45 || bytes[i + 3] !== 0x4f || bytes[i + 4] !== 0x46) continue;
    let end = i + 5;
    if (bytes[end] === 0x0d) end++;
    if (bytes[end] === 0x0a) end++;
    ends.push(end);
  }
  return ends;
}

/** The end of the file without trailing whitespace and NUL padding. */
function contentEnd(bytes: Uint8Array): number {
  let end = bytes.length;
  while (end > 0 && [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(bytes[end - 1])) end--;
  return end;
}

function readByteRange(v: Obj): number[] | null {
  const br = v.get("ByteRange");
  if (!br.isArray() || br.length !== 4) return null;
  const out: number[] = [];
  for (let i = 0; i < 4; i++) {
    const n = br.get(i);
    if (!n.isNumber() || !Number.isSafeInteger(n.asNumber()) || n.asNumber() < 0) return null;
    out.push(n.asNumber());
  }
  return out;
}

/** The hex digits of the /Contents hole as bytes, when the hole is exactly one hex string. */
function holeContents(bytes: Uint8Array, start: number, end: number): Uint8Array | null {
  if (bytes[start] !== 0x3c || bytes[end - 1] !== 0x3e) return null;
  const text = new TextDecoder("latin1").decode(bytes.subarray(start + 1, end - 1)).replace(/\s+/g, "");
  if (!/^[0-9a-fA-F]*$/.test(text) || text.length % 2) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function certificationLevel(v: Obj): number | null {
  const refs = v.get("Reference");
  for (let i = 0; refs.isArray() && i < refs.length; i++) {
    const r = refs.get(i).resolve();
    if (name(r.get("TransformMethod")) === "DocMDP") {
      const p = at(r, "TransformParams", "P");
      return p?.isNumber() ? p.asNumber() : 2;
    }
  }
  return null;
}

async function checkOne(bytes: Uint8Array, field: string, v: Obj, ends: number[], anchors: pkijs.Certificate[] | null): Promise<SignatureReport> {
  const range = readByteRange(v);
  const base = {
    field,
    filter: name(v.get("Filter")),
    sub_filter: name(v.get("SubFilter")),
    signing_time: parsePdfDate(str(v.get("M"))),
    reason: str(v.get("Reason")),
    location: str(v.get("Location")),
    contact_info: str(v.get("ContactInfo")),
    byte_range: range,
    certification: certificationLevel(v),
  };
  const fail = (problem: string): SignatureReport => ({
    ...base,
    byte_range_covers_revision: false,
    modified_after_signing: true,
    revisions_after: 0,
    ...unverifiedReport(anchors, [problem]),
  });
  if (!range) return fail("The /ByteRange is missing or malformed.");
  const [a, b, c, d] = range;
  if (a !== 0 || b >= c || c + d > bytes.length) return fail("The /ByteRange does not describe this file.");
  const contents = holeContents(bytes, b, c);
  if (!contents) return fail("The gap in the /ByteRange is not exactly the /Contents hex string.");
  const end = c + d;
  const signed = new Uint8Array(b + d);
  signed.set(bytes.subarray(0, b));
  signed.set(bytes.subarray(c, end), b);
  const cms = await verifyCms(contents, signed, anchors);
  return {
    ...base,
    ...cms,
    byte_range_covers_revision: ends.includes(end) || end === bytes.length,
    modified_after_signing: end < contentEnd(bytes),
    revisions_after: ends.filter((e) => e > end).length,
  };
}

export async function readSignatures(bytes: Uint8Array, anchors: pkijs.Certificate[] | null): Promise<{ pages: number; signatures: SignatureReport[] }> {
  const mupdf = await loadMupdf();
  const doc = openPdfDocument(mupdf, bytes);
  try {
    if (doc.needsPassword()) throw new EngineError("encrypted", "The PDF is password-protected; remove its password with Unlock PDF first.");
    const pages = doc.countPages();
    const fields = signatureFields(doc).filter((f) => f.signed && f.value);
    const ends = revisionEnds(bytes);
    const signatures: SignatureReport[] = [];
    for (const f of fields) if (f.value) signatures.push(await checkOne(bytes, f.name, f.value, ends, anchors));
    return { pages, signatures };
  } catch (err) {
    throw asEngineError(err, "corrupt", "The PDF could not be read");
  } finally {
    doc.destroy();
    mupdf.emptyStore();
  }
}
