import { LIMITS } from "../config";
import type { ToolDef } from "./define";

const MiB = 1024 * 1024;

/**
 * What a call reserves of the isolate's memory budget before it runs
 * (src/runtime/memory.ts), when its tool declares nothing better: a base for
 * the engine's working set plus four bytes per input byte, about what MuPDF
 * holds for a document it has parsed (objects, streams, its store). Engines
 * that learn their real plan later (the image engine, from a header) raise
 * the reservation then.
 */
export function memoryEstimate(tool: ToolDef, input: unknown): number {
  if (tool.memory) return tool.memory(input as never);
  return uploadEstimate(input);
}

/** The default: 8 MiB plus four bytes per uploaded byte. */
export const uploadEstimate = (input: unknown): number => 8 * MiB + 4 * inputBytes(input);

/**
 * A call that unpacks an uploaded ZIP (an HTML assets ZIP) reserves what the
 * ZIP may expand to on top (LIMITS.zipInflatedBytes; the ZIP reader refuses
 * more, src/engines/zip.ts), since its size is known only once the upload is
 * read, after admission.
 */
export const withZipEstimate = (input: unknown, hasZip: boolean): number => uploadEstimate(input) + (hasZip ? LIMITS.zipInflatedBytes : 0);

/** Bytes of every upload in a parsed request: files, arrays of them, and Base64 strings (JSON tools). */
function inputBytes(value: unknown): number {
  if (value instanceof File || value instanceof Blob) return value.size;
  if (typeof value === "string") return value.length > 1024 ? Math.ceil((value.length * 3) / 4) : 0;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + inputBytes(v), 0);
  if (value && typeof value === "object") return Object.values(value).reduce((n: number, v) => n + inputBytes(v), 0);
  return 0;
}
