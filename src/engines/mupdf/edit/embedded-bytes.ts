import type { PDFObject } from "mupdf";
import { Unzlib } from "fflate";
import { EngineError } from "../../errors";
import type { PDFDocument } from "../core/document";

// An embedded file's bytes, never more than `limit` of them. A few hundred
// bytes of Flate data can claim gigabytes, and MuPDF decodes a stream whole
// into its heap before anyone can look at the size; so the usual case (no
// filter, or Flate alone) is read raw and inflated here in slices, stopping
// at the first byte past the limit. Other filter chains are rare for
// attachments and go through MuPDF, their result checked afterwards.

const SLICE = 16 * 1024;

class Overrun extends Error {}

function filtersOf(stream: PDFObject): string[] | null {
  const f = stream.get("Filter");
  if (f.isNull()) return [];
  if (f.isName()) return [f.asName()];
  if (!f.isArray()) return null;
  const names: string[] = [];
  for (let i = 0; i < f.length; i++) {
    const item = f.get(i);
    if (!item.isName()) return null;
    names.push(item.asName());
  }
  return names;
}

function copyOut(buf: { asUint8Array(): Uint8Array; destroy(): void }): Uint8Array {
  try {
    return buf.asUint8Array().slice();
  } finally {
    buf.destroy();
  }
}

function inflateBounded(data: Uint8Array, limit: number): Uint8Array | null {
  const chunks: Uint8Array[] = [];
  let written = 0;
  const inflater = new Unzlib((chunk) => {
    written += chunk.length;
    if (written > limit) throw new Overrun();
    chunks.push(chunk);
  });
  try {
    for (let at = 0; at < data.length; at += SLICE) inflater.push(data.subarray(at, at + SLICE), at + SLICE >= data.length);
  } catch (err) {
    if (err instanceof Overrun) return null;
    throw new EngineError("corrupt", `An attachment's Flate data is damaged (${err instanceof Error ? err.message : "inflate error"}).`);
  }
  const out = new Uint8Array(written);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The decoded bytes of `stream` (an embedded file of `spec`), or null when they would exceed `limit`. */
export function embeddedBytes(doc: PDFDocument, spec: PDFObject, stream: PDFObject, limit: number): Uint8Array | null {
  const filters = filtersOf(stream);
  const plainFlate = filters?.length === 1 && filters[0] === "FlateDecode" && stream.get("DecodeParms").isNull();
  if (filters?.length === 0 || plainFlate) {
    const raw = copyOut(stream.readRawStream());
    if (!plainFlate) return raw.byteLength > limit ? null : raw;
    return inflateBounded(raw, limit);
  }
  const buf = doc.getEmbeddedFileContents(spec);
  if (!buf) return new Uint8Array();
  const data = copyOut(buf);
  return data.byteLength > limit ? null : data;
}
