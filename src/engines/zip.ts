import { Inflate, zipSync } from "fflate";
import { EngineError } from "./errors";

// ZIP containers both ways. Writing: outputs of several files. Reading: the
// packages callers upload (DOCX, HTML asset ZIPs), which are untrusted. A
// ZIP's central directory says how big each entry is, but nothing holds the
// Deflate data to it: fflate's unzipSync allocates what the directory
// declares, and readers like JSZip inflate whole streams and compare lengths
// only at the end, so a 300 KB upload can take 240 MB, or a lying directory
// (1 KB declared, 50 MB inside) can slip past a check of declared sizes. Here
// every declared size is checked before anything is inflated, and each entry
// is inflated in small pushes into a buffer of its declared size: the first
// byte past it stops the work. A package can therefore never cost more than
// its declared total, which is itself capped.

export interface NamedFile {
  name: string;
  data: Uint8Array;
}

/**
 * Stores files in a ZIP without recompressing them (PDF and image payloads
 * are already compressed; deflating again costs time for nothing). Duplicate
 * names get a numeric suffix so no part is lost.
 */
export function zipFiles(files: NamedFile[]): Uint8Array {
  const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const f of files) entries[uniqueName(entries, f.name)] = [f.data, { level: 0 }];
  return zipSync(entries);
}

function uniqueName(taken: Record<string, unknown>, name: string): string {
  if (!(name in taken)) return name;
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  for (let i = 2; ; i++) {
    const candidate = `${stem} (${i})${ext}`;
    if (!(candidate in taken)) return candidate;
  }
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 Deflate. */
  method: number;
  compressedSize: number;
  /** What the central directory declares. */
  size: number;
  localOffset: number;
}

export interface ZipLimits {
  /** The declared sizes of the entries read may add up to this much. */
  maxTotalBytes: number;
  /** Entries in the directory (a DOCX has tens; a million empty names is an attack on the parser). */
  maxEntries?: number;
}

const DEFAULT_MAX_ENTRIES = 10_000;
/** Deflate cannot turn one byte into more than about 1,032: a directory that claims more lies. */
const MAX_DEFLATE_RATIO = 1032;

const corrupt = (why: string) => new EngineError("corrupt", `The ZIP package could not be read: ${why}.`);
const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

/**
 * The central directory's file entries (folders left out) that `wanted`
 * keeps, checked for what can be checked without inflating: each entry's
 * data inside the file, no encryption, a size its compressed data can really
 * produce, and the declared sizes together within `limits.maxTotalBytes`.
 */
export function zipDirectory(bytes: Uint8Array, limits: ZipLimits, wanted: (name: string) => boolean = () => true): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { count, start } = locateDirectory(bytes, view);
  const maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (count > maxEntries) throw new EngineError("too_large", `The ZIP package has ${count} entries; at most ${maxEntries} are read.`);
  const entries: ZipEntry[] = [];
  let total = 0;
  for (let i = 0, at = start; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw corrupt("its central directory is damaged");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const next = at + 46 + nameLength + extraLength + view.getUint16(at + 32, true);
    if (next > bytes.length) throw corrupt("its central directory runs past the end of the file");
    const name = new TextDecoder(flags & 0x800 ? "utf-8" : "latin1").decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const sizes = zip64Sizes(view, at + 46 + nameLength, extraLength, {
      size: view.getUint32(at + 24, true),
      compressedSize: view.getUint32(at + 20, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at = next;
    if (name.endsWith("/") || !wanted(name)) continue;
    if (flags & 1) throw new EngineError("unsupported", `The ZIP entry ${name} is encrypted.`);
    const entry: ZipEntry = { name, method, ...sizes };
    checkEntry(entry, bytes.length);
    total += entry.size;
    if (total > limits.maxTotalBytes) {
      throw new EngineError("too_large", `The ZIP package expands to more than ${mib(limits.maxTotalBytes)} (at ${name}); at most that much is unpacked.`);
    }
    entries.push(entry);
  }
  return entries;
}

/** The end-of-central-directory record (ZIP64's when the classic one overflows): entry count and where the directory starts. */
function locateDirectory(bytes: Uint8Array, view: DataView): { count: number; start: number } {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw corrupt("it is not a ZIP file (no central directory)");
  let count = view.getUint16(eocd + 10, true);
  let start = view.getUint32(eocd + 16, true);
  if (count === 0xffff || start === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== 0x07064b50) throw corrupt("its ZIP64 directory is missing");
    const record = safeNumber(view.getBigUint64(locator + 8, true));
    if (record + 56 > bytes.length || view.getUint32(record, true) !== 0x06064b50) throw corrupt("its ZIP64 directory is damaged");
    count = safeNumber(view.getBigUint64(record + 32, true));
    start = safeNumber(view.getBigUint64(record + 48, true));
  }
  if (start > bytes.length) throw corrupt("its central directory lies outside the file");
  return { count, start };
}

interface Sizes {
  size: number;
  compressedSize: number;
  localOffset: number;
}

/** Sizes that did not fit 32 bits are in the ZIP64 extra field (id 1), in this order, each only when its classic field is all ones. */
function zip64Sizes(view: DataView, extraAt: number, extraLength: number, classic: Sizes): Sizes {
  const out = { ...classic };
  const fields = (["size", "compressedSize", "localOffset"] as const).filter((k) => classic[k] === 0xffffffff);
  if (!fields.length) return out;
  for (let at = extraAt; at + 4 <= extraAt + extraLength; ) {
    const id = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    if (id === 1) {
      fields.forEach((k, i) => {
        if (4 + 8 * (i + 1) > length + 4) throw corrupt("its ZIP64 sizes are cut short");
        out[k] = safeNumber(view.getBigUint64(at + 4 + 8 * i, true));
      });
      return out;
    }
    at += 4 + length;
  }
  throw corrupt("its ZIP64 sizes are missing");
}

function safeNumber(n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt("it declares an impossible size");
  return Number(n);
}

function checkEntry(e: ZipEntry, fileLength: number): void {
  if (e.method !== 0 && e.method !== 8)
    throw new EngineError("unsupported", `The ZIP entry ${e.name} uses compression method ${e.method}; only stored and Deflate are read.`);
  if (e.localOffset + 30 + e.compressedSize > fileLength) throw corrupt(`the data of ${e.name} runs past the end of the file`);
  if (e.method === 0 && e.size !== e.compressedSize) throw corrupt(`the stored entry ${e.name} declares two different sizes`);
  if (e.method === 8 && e.size > e.compressedSize * MAX_DEFLATE_RATIO + 1024) {
    throw corrupt(`${e.name} declares ${e.size} bytes, more than ${e.compressedSize} bytes of Deflate data can hold`);
  }
}

/** Where an entry's data starts: after its local header, whose name and extra lengths may differ from the directory's. */
function dataStart(bytes: Uint8Array, view: DataView, e: ZipEntry): number {
  const at = e.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50) throw corrupt(`the local header of ${e.name} is missing`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + e.compressedSize > bytes.length) throw corrupt(`the data of ${e.name} runs past the end of the file`);
  return start;
}

/** Bytes of Deflate data pushed at once: sized from the ratio seen so far so that one push yields about OUT_TARGET (a bomb's 1,000:1 is fed 1 KB at a time). */
const OUT_TARGET = 1024 * 1024;
const MIN_SLICE = 1024;
const MAX_SLICE = 256 * 1024;

/** Thrown from inside fflate's callback to stop it; told apart from fflate's own errors. */
class Overrun extends Error {}

/**
 * One entry's bytes, inflated into a buffer of its declared size. Output
 * past that size stops the inflation at once (the directory lied: refused as
 * a damaged package), and so does output that ends short of it.
 */
export function inflateEntry(bytes: Uint8Array, e: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = dataStart(bytes, view, e);
  const data = bytes.subarray(start, start + e.compressedSize);
  if (e.method === 0) return data.slice();
  const out = new Uint8Array(e.size);
  let written = 0;
  let ended = false;
  const inflater = new Inflate((chunk, final) => {
    if (written + chunk.length > e.size) throw new Overrun();
    out.set(chunk, written);
    written += chunk.length;
    ended ||= final;
  });
  try {
    for (let fed = 0; fed < data.length && !ended; ) {
      const slice = written === 0 ? MIN_SLICE : Math.max(MIN_SLICE, Math.min(MAX_SLICE, Math.floor((OUT_TARGET * fed) / written)));
      const end = Math.min(data.length, fed + slice);
      inflater.push(data.subarray(fed, end), end === data.length);
      fed = end;
    }
  } catch (err) {
    if (err instanceof Overrun) throw corrupt(`${e.name} inflates to more than the ${e.size} bytes its directory declares`);
    throw corrupt(`the Deflate data of ${e.name} is damaged (${err instanceof Error ? err.message : "inflate error"})`);
  }
  if (written !== e.size) throw corrupt(`${e.name} inflates to ${written} bytes, not the ${e.size} its directory declares`);
  return out;
}

/**
 * The entries `wanted` keeps, checked (zipDirectory) and inflated
 * (inflateEntry), by name. What this holds at the end is at most the
 * declared total, and at no moment more than that.
 */
export function readZip(bytes: Uint8Array, limits: ZipLimits, wanted?: (name: string) => boolean): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of zipDirectory(bytes, limits, wanted)) files.set(entry.name, inflateEntry(bytes, entry));
  return files;
}
