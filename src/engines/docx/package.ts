import { zipSync } from "fflate";
import { LIMITS } from "../../config";
import { EngineError } from "../errors";
import { readZip, zipDirectory } from "../zip";

// A DOCX is a ZIP of XML parts (and media). Every reading goes through the
// bounded ZIP reader (../zip.ts): declared sizes are checked before anything
// is inflated, the whole package may expand to LIMITS.zipInflatedBytes, and
// an entry that inflates past its declared size is refused as it happens.

const DOCUMENT = "word/document.xml";

/** A DOCX's main XML part may expand to this much: a reader holds it as a DOM, several times its size. */
export const MAX_DOCUMENT_XML_BYTES = 16 * 1024 * 1024;

const PACKAGE_LIMITS = { maxTotalBytes: LIMITS.zipInflatedBytes, maxEntries: 5_000 };

export type DocxParts = Map<string, string>;

/** The ZIP reader's refusals say "ZIP package"; a caller sent a DOCX. */
function asDocx<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof EngineError)
      throw new EngineError(err.kind, err.message.replace("The ZIP package", "The DOCX").replace("The ZIP entry", "The DOCX part"));
    throw new EngineError("corrupt", "The file is not a readable DOCX (ZIP) package.");
  }
}

/**
 * Checks the whole package from its directory (every part counts towards the
 * cap, whichever are read: a DOCX that would expand past it is refused by
 * every tool alike) and the main part's own bound. Answers the main part's
 * declared size and the package's.
 */
function checkPackage(bytes: Uint8Array): { documentXmlBytes: number; inflatedBytes: number } {
  const entries = asDocx(() => zipDirectory(bytes, PACKAGE_LIMITS));
  const document = entries.find((e) => e.name === DOCUMENT);
  if (!document) throw new EngineError("corrupt", "The DOCX has no word/document.xml.");
  if (document.size > MAX_DOCUMENT_XML_BYTES) {
    throw new EngineError("too_large", `The DOCX's text part expands to ${document.size} bytes; at most ${MAX_DOCUMENT_XML_BYTES} are read.`);
  }
  return { documentXmlBytes: document.size, inflatedBytes: entries.reduce((n, e) => n + e.size, 0) };
}

/** Reads the named parts (UTF-8 XML) of a DOCX; absent parts are simply missing from the map. */
export function readDocxParts(bytes: Uint8Array, names: readonly string[]): DocxParts {
  checkPackage(bytes);
  const wanted = new Set(names);
  const files = asDocx(() => readZip(bytes, PACKAGE_LIMITS, (name) => wanted.has(name)));
  const parts: DocxParts = new Map();
  const decoder = new TextDecoder("utf-8");
  for (const [name, data] of files) parts.set(name, decoder.decode(data));
  return parts;
}

export interface DocxPackage {
  /** Every part, inflated and checked. */
  files: Map<string, Uint8Array>;
  documentXmlBytes: number;
  /** All parts together, as inflated. */
  inflatedBytes: number;
}

/** Every part of a DOCX, inflated within the package's bounds (for readers that need the whole package: mammoth). */
export function readDocxPackage(bytes: Uint8Array): DocxPackage {
  const { documentXmlBytes, inflatedBytes } = checkPackage(bytes);
  return { files: asDocx(() => readZip(bytes, PACKAGE_LIMITS)), documentXmlBytes, inflatedBytes };
}

/** The declared sizes, before anything is inflated: what the callers reserve memory by. */
export const docxPackageSizes = checkPackage;

/**
 * The parts again as a ZIP whose entries are stored, not compressed: what
 * mammoth (JSZip) is given, so that what it inflates was inflated and
 * measured here first, and its own inflation is a copy.
 */
export function storedDocx(files: Map<string, Uint8Array>): Uint8Array {
  const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const [name, data] of files) entries[name] = [data, { level: 0 }];
  return zipSync(entries);
}
