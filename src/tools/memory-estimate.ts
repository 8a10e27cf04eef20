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
  return 8 * MiB + 4 * inputBytes(input);
}

/** Bytes of every upload in a parsed request: files, arrays of them, and Base64 strings (JSON tools). */
function inputBytes(value: unknown): number {
  if (value instanceof File || value instanceof Blob) return value.size;
  if (typeof value === "string") return value.length > 1024 ? Math.ceil((value.length * 3) / 4) : 0;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + inputBytes(v), 0);
  if (value && typeof value === "object") return Object.values(value).reduce((n: number, v) => n + inputBytes(v), 0);
  return 0;
}
