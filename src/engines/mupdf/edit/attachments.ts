import type { PDFObject } from "mupdf";
import { reserveMemory } from "../../../runtime/memory";
import type { PDFDocument } from "../core/document";
import { formatIsoDate, parsePdfDate } from "./dates";
import { saveEdited, withEditablePdf } from "./editable";
import { embeddedBytes } from "./embedded-bytes";

// Document-level attachments: the catalog's /EmbeddedFiles name tree
// (ISO 32000-1 7.11.4) and, for PDF/A-3 associated files, the catalog's /AF
// array with each file specification's /AFRelationship (ISO 19005-3 6.8).
// File attachment annotations on pages are not document attachments and
// are left alone.

export const RELATIONSHIPS = ["Source", "Data", "Alternative", "Supplement", "Unspecified"] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

/** What one extract call decodes at most, all files together; the ZIP copy doubles it. */
export const EXTRACT_MAX_BYTES = 32 * 1024 * 1024;
const MiB = 1024 * 1024;

export interface AttachmentInfo {
  name: string;
  /** As /Params records it; null when it does not (the file is not decoded to find out). */
  size: number | null;
  mimeType: string | null;
  description: string | null;
  creationDate: string | null;
  modificationDate: string | null;
  relationship: string | null;
}

export interface NewAttachment {
  name: string;
  mimeType: string;
  data: Uint8Array;
  description?: string;
  relationship?: Relationship;
}

function embeddedStream(spec: PDFObject): PDFObject | null {
  const ef = spec.get("EF");
  if (!ef.isDictionary()) return null;
  for (const key of ["UF", "F"]) {
    const s = ef.get(key);
    if (s.isStream()) return s;
  }
  return null;
}

const stringOf = (o: PDFObject): string | null => (o.isString() ? o.asString() : null);
const nameOf = (o: PDFObject): string | null => (o.isName() ? o.asName() : null);

function dateOf(params: PDFObject, key: string): string | null {
  const s = stringOf(params.get(key));
  const parts = s ? parsePdfDate(s) : null;
  return parts ? formatIsoDate(parts) : null;
}

function sizeOf(params: PDFObject): number | null {
  const declared = params.isDictionary() ? params.get("Size") : null;
  return declared?.isInteger() && declared.asNumber() >= 0 ? declared.asNumber() : null;
}

function describe(doc: PDFDocument, name: string, spec: PDFObject): AttachmentInfo {
  const stream = embeddedStream(spec);
  const params = stream?.get("Params") ?? doc.newNull();
  return {
    name,
    size: sizeOf(params),
    mimeType: stream ? nameOf(stream.get("Subtype")) : null,
    description: stringOf(spec.get("Desc")),
    creationDate: params.isDictionary() ? dateOf(params, "CreationDate") : null,
    modificationDate: params.isDictionary() ? dateOf(params, "ModDate") : null,
    relationship: nameOf(spec.get("AFRelationship")),
  };
}

function entries(doc: PDFDocument): [string, PDFObject][] {
  return Object.entries(doc.getEmbeddedFiles()).filter(([, spec]) => spec.isDictionary());
}

/** The document's attachments in name-tree order. */
export function listAttachments(bytes: Uint8Array): Promise<AttachmentInfo[]> {
  return withEditablePdf(bytes, (doc) => entries(doc).map(([name, spec]) => describe(doc, name, spec)));
}

/** Drops `spec` from the catalog's /AF array (a replaced attachment must not stay associated). */
function dropFromAf(root: PDFObject, spec: PDFObject): void {
  const af = root.get("AF");
  if (!af.isArray() || !spec.isIndirect()) return;
  for (let i = af.length - 1; i >= 0; i--) {
    const item = af.get(i);
    if (item.isIndirect() && item.asIndirect() === spec.asIndirect()) af.delete(i);
  }
}

function addToAf(doc: PDFDocument, root: PDFObject, spec: PDFObject): void {
  let af = root.get("AF");
  if (!af.isArray()) af = root.put("AF", doc.newArray());
  af.push(spec);
}

/**
 * Embeds `files`; a name the document already holds is replaced, its old
 * file specification dropped from /AF too. Answers the attachments now in
 * the file and the new bytes.
 */
export function addAttachments(bytes: Uint8Array, files: NewAttachment[], now = new Date()): Promise<{ data: Uint8Array; attachments: AttachmentInfo[] }> {
  return withEditablePdf(bytes, (doc) => {
    const root = doc.getTrailer().get("Root");
    const existing = new Map(entries(doc));
    for (const file of files) {
      const old = existing.get(file.name);
      if (old) dropFromAf(root, old);
      // MD5 checksum in /Params: PDF/A-3 readers use it to check the file arrived whole.
      const spec = doc.addEmbeddedFile(file.name, file.mimeType, file.data, now, now, true);
      if (file.description) spec.put("Desc", doc.newString(file.description));
      if (file.relationship) {
        spec.put("AFRelationship", doc.newName(file.relationship));
        addToAf(doc, root, spec);
      }
      doc.insertEmbeddedFile(file.name, spec);
    }
    const attachments = entries(doc).map(([name, spec]) => describe(doc, name, spec));
    return { data: saveEdited(doc), attachments };
  });
}

export interface ExtractedFile {
  name: string;
  mimeType: string | null;
  data: Uint8Array;
}

/**
 * One attachment by name, or every one (name omitted), with the names the
 * document holds (an unknown name finds no file). `tooLarge` when the files
 * would decode to more than EXTRACT_MAX_BYTES together.
 */
export function extractAttachments(bytes: Uint8Array, name?: string): Promise<{ files: ExtractedFile[]; names: string[]; tooLarge: boolean }> {
  return withEditablePdf(bytes, async (doc) => {
    const all = entries(doc);
    const chosen = name === undefined ? all : all.filter(([n]) => n === name);
    const names = all.map(([n]) => n);
    const declared = chosen.reduce((sum, [, spec]) => sum + (sizeOf(embeddedStream(spec)?.get("Params") ?? doc.newNull()) ?? 0), 0);
    if (declared > EXTRACT_MAX_BYTES) return { files: [], names, tooLarge: true };
    // The decoded files and their ZIP, beside the parsed document.
    await reserveMemory(8 * MiB + 4 * bytes.byteLength + 2 * declared);
    const files: ExtractedFile[] = [];
    let left = EXTRACT_MAX_BYTES;
    for (const [n, spec] of chosen) {
      const stream = embeddedStream(spec);
      const data = stream ? embeddedBytes(doc, spec, stream, left) : new Uint8Array();
      if (data === null) return { files: [], names, tooLarge: true };
      left -= data.byteLength;
      files.push({ name: n, mimeType: stream ? nameOf(stream.get("Subtype")) : null, data });
    }
    return { files, names, tooLarge: false };
  });
}
