import type { PDFObject } from "mupdf";
import { splitKeywords } from "../../text/facts";
import { parseXmp, type XmpPacket } from "../../text/xmp";
import type { PDFDocument } from "../core/document";
import { type DateParts, formatIsoDate, formatPdfDate, parseIsoDate, parsePdfDate, utcParts } from "./dates";
import { saveEdited, withEditablePdf } from "./editable";
import { NS, newPacket, prefixesOf, updatePacket, type XmpFields } from "./xmp-write";

/** The text fields of the Info dictionary a caller can set, by their Info key. */
export const TEXT_KEYS = { title: "Title", author: "Author", subject: "Subject", creator: "Creator", producer: "Producer" } as const;
type TextField = keyof typeof TEXT_KEYS;

/** Info keys with a field of their own (or, Trapped, a name value): not custom keys. */
export const RESERVED_KEYS = new Set<string>([...Object.values(TEXT_KEYS), "Keywords", "CreationDate", "ModDate", "Trapped"]);

/** What to change: a value sets, null removes, absent keeps (modificationDate absent means now). */
export type MetadataChanges = Partial<Record<TextField, string | null>> & {
  keywords?: string[] | null;
  creationDate?: DateParts | null;
  modificationDate?: DateParts | null;
  language?: string | null;
  custom?: Record<string, string | null>;
};

/** The metadata in the written file. Dates in ISO 8601 as XMP spells them. */
export interface WrittenMetadata {
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string[];
  creator: string | null;
  producer: string | null;
  creationDate: string | null;
  modificationDate: string | null;
  language: string | null;
  custom: Record<string, string>;
  /** Whether the file already had an XMP packet (updated) or got a new one. */
  xmp: "updated" | "created";
}

// Values are trimmed: XMP readers trim element text, and a value with a
// trailing space would then disagree with its Info twin.
const present = (v: string | null | undefined): string | null => (v && v.trim() !== "" ? v.trim() : null);

function infoDict(doc: PDFDocument): PDFObject {
  const trailer = doc.getTrailer();
  const info = trailer.get("Info");
  if (info.isDictionary()) return info;
  // Through MuPDF's own metadata call: an Info object added and put in the
  // trailer by hand is dropped when the file is written. Title is rewritten
  // (or removed) by every edit, so the placeholder never survives.
  // The trailer wrapper taken before is stale after it (MuPDF replaces the trailer).
  doc.setMetaData("info:Title", "");
  return doc.getTrailer().get("Info");
}

function readString(dict: PDFObject, key: string): string | null {
  const v = dict.get(key);
  return v.isString() ? present(v.asString()) : null;
}

/** A packet read by namespace, not by prefix: writers bind Dublin Core to "dc" by habit only. */
interface XmpReader {
  text: string;
  values(ns: keyof typeof NS, name: string): string[] | null;
  text1(ns: keyof typeof NS, name: string): string | null;
}

function xmpReader(packet: XmpPacket): XmpReader {
  const values = (ns: keyof typeof NS, name: string) => {
    for (const prefix of [ns, ...prefixesOf(packet.text, NS[ns])]) {
      const found = packet.namespace(prefix) === NS[ns] ? packet.values(prefix, name) : null;
      if (found) return found;
    }
    return null;
  };
  return { text: packet.text, values, text1: (ns, name) => values(ns, name)?.[0] ?? null };
}

function catalogXmp(doc: PDFDocument): { stream: PDFObject | null; packet: XmpReader | null } {
  const md = doc.getTrailer().get("Root", "Metadata");
  if (!md.isStream()) return { stream: null, packet: null };
  const buf = md.readStream();
  try {
    return { stream: md, packet: xmpReader(parseXmp(buf.asUint8Array().slice())) };
  } finally {
    buf.destroy();
  }
}

function finalDate(change: DateParts | null | undefined, info: string | null, xmp: string | null | undefined): DateParts | null {
  if (change !== undefined) return change;
  return (info ? parsePdfDate(info) : null) ?? (xmp ? parseIsoDate(xmp) : null);
}

/** The text fields after the change: the change, else what Info says, else what XMP says (Info wins, as our reader reads it). */
function finalTexts(info: PDFObject, xmp: XmpReader | null, changes: MetadataChanges): Record<TextField, string | null> {
  const fromXmp: Record<TextField, string | null | undefined> = {
    title: xmp?.text1("dc", "title"),
    author: xmp?.values("dc", "creator")?.join(", "),
    subject: xmp?.text1("dc", "description"),
    creator: xmp?.text1("xmp", "CreatorTool"),
    producer: xmp?.text1("pdf", "Producer"),
  };
  const out = {} as Record<TextField, string | null>;
  for (const field of Object.keys(TEXT_KEYS) as TextField[]) {
    const change = changes[field];
    out[field] = change !== undefined ? present(change) : (readString(info, TEXT_KEYS[field]) ?? present(fromXmp[field]));
  }
  return out;
}

function putOrDelete(doc: PDFDocument, dict: PDFObject, key: string, value: string | null): void {
  if (value === null) dict.delete(key);
  else dict.put(key, doc.newString(value));
}

function customKeys(info: PDFObject): Record<string, string> {
  const out: Record<string, string> = {};
  info.forEach((value, key) => {
    if (typeof key === "string" && !RESERVED_KEYS.has(key) && value.isString()) out[key] = value.asString();
  });
  return out;
}

function apply(doc: PDFDocument, changes: MetadataChanges, now: Date): WrittenMetadata {
  const info = infoDict(doc);
  const root = doc.getTrailer().get("Root");
  const { stream, packet } = catalogXmp(doc);
  const texts = finalTexts(info, packet, changes);
  const keywords =
    changes.keywords !== undefined
      ? (changes.keywords ?? [])
      : splitKeywords(readString(info, "Keywords") ?? packet?.text1("pdf", "Keywords") ?? packet?.values("dc", "subject")?.join(", "));
  const created = finalDate(changes.creationDate, readString(info, "CreationDate"), packet?.text1("xmp", "CreateDate"));
  const modified = changes.modificationDate === undefined ? utcParts(now) : changes.modificationDate;
  const lang = root.get("Lang");
  const language =
    changes.language !== undefined ? changes.language : ((lang.isString() ? present(lang.asString()) : null) ?? present(packet?.values("dc", "language")?.[0]));

  for (const field of Object.keys(TEXT_KEYS) as TextField[]) putOrDelete(doc, info, TEXT_KEYS[field], texts[field]);
  putOrDelete(doc, info, "Keywords", keywords.length ? keywords.join(", ") : null);
  putOrDelete(doc, info, "CreationDate", created && formatPdfDate(created));
  putOrDelete(doc, info, "ModDate", modified && formatPdfDate(modified));
  for (const [key, value] of Object.entries(changes.custom ?? {})) putOrDelete(doc, info, key, value);
  putOrDelete(doc, root, "Lang", language);

  const fields: XmpFields = {
    ...texts,
    keywords,
    language,
    createDate: created && formatIsoDate(created),
    modifyDate: modified && formatIsoDate(modified),
    metadataDate: formatIsoDate(utcParts(now)),
  };
  writeXmp(doc, root, stream, packet, fields);
  return {
    ...texts,
    keywords,
    creationDate: fields.createDate ?? null,
    modificationDate: fields.modifyDate ?? null,
    language,
    custom: customKeys(info),
    xmp: stream ? "updated" : "created",
  };
}

function writeXmp(doc: PDFDocument, root: PDFObject, stream: PDFObject | null, packet: XmpReader | null, fields: XmpFields): void {
  const bytes = new TextEncoder().encode(packet ? updatePacket(packet.text, fields) : newPacket(fields));
  if (stream) {
    // writeStream drops the stream's filters: PDF/A wants the packet readable as it is.
    stream.writeStream(bytes);
    return;
  }
  const dict = doc.newDictionary();
  dict.put("Type", doc.newName("Metadata"));
  dict.put("Subtype", doc.newName("XML"));
  root.put("Metadata", doc.addStream(bytes, dict));
}

/** Writes `changes` to the Info dictionary, the catalog's /Lang and the XMP packet, so that all agree. */
export function writeMetadata(bytes: Uint8Array, changes: MetadataChanges, now = new Date()): Promise<{ data: Uint8Array; metadata: WrittenMetadata }> {
  return withEditablePdf(bytes, (doc) => {
    const metadata = apply(doc, changes, now);
    return { data: saveEdited(doc), metadata };
  });
}
