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
