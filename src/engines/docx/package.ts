import { unzipSync } from "fflate";
import { EngineError } from "../errors";

// A DOCX is a ZIP of XML parts. Only the parts asked for are inflated, and
// each is capped by its declared size first, so a ZIP bomb is refused before
// it is expanded.

const MAX_PART_BYTES = 64 * 1024 * 1024;

export type DocxParts = Map<string, string>;

/** Reads the named parts (UTF-8 XML) of a DOCX; absent parts are simply missing from the map. */
export function readDocxParts(bytes: Uint8Array, names: readonly string[]): DocxParts {
  const wanted = new Set(names);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        if (!wanted.has(f.name)) return false;
        if (f.originalSize > MAX_PART_BYTES) throw new EngineError("too_large", `The DOCX part ${f.name} expands to more than ${MAX_PART_BYTES} bytes.`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError("corrupt", "The file is not a readable DOCX (ZIP) package.");
  }
  const parts: DocxParts = new Map();
  const decoder = new TextDecoder("utf-8");
  for (const [name, data] of Object.entries(files)) parts.set(name, decoder.decode(data));
  if (!parts.has("word/document.xml")) throw new EngineError("corrupt", "The DOCX has no word/document.xml.");
  return parts;
}

/** A DOCX's main XML part may expand to this much: a reader holds it as a DOM, several times its size. */
export const MAX_DOCUMENT_XML_BYTES = 16 * 1024 * 1024;

/**
 * Checks every part's declared size without inflating anything, for readers
 * that unpack a whole package themselves (mammoth): each part within
 * MAX_PART_BYTES, word/document.xml within MAX_DOCUMENT_XML_BYTES. Answers
 * the document part's size.
 */
export function checkDocxPackage(bytes: Uint8Array): { documentXmlBytes: number } {
  let documentXmlBytes = -1;
  try {
    unzipSync(bytes, {
      filter: (f) => {
        if (f.originalSize > MAX_PART_BYTES) throw new EngineError("too_large", `The DOCX part ${f.name} expands to more than ${MAX_PART_BYTES} bytes.`);
        if (f.name === "word/document.xml") documentXmlBytes = f.originalSize;
        return false;
      },
    });
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError("corrupt", "The file is not a readable DOCX (ZIP) package.");
  }
  if (documentXmlBytes < 0) throw new EngineError("corrupt", "The DOCX has no word/document.xml.");
  if (documentXmlBytes > MAX_DOCUMENT_XML_BYTES) {
    throw new EngineError("too_large", `The DOCX's text part expands to ${documentXmlBytes} bytes; at most ${MAX_DOCUMENT_XML_BYTES} are read.`);
  }
  return { documentXmlBytes };
}
