import engModel from "../../../wasm/eng.traineddata.bin";
import createTesseract from "../../../wasm/tesseract-core.js";
import tesseractWasm from "../../../wasm/tesseract-core.wasm";
import { noteHeapUse, registerHeap, samplePeak } from "../heap";
import type { TessEngine, TesseractLib } from "./tesseract-lib";

/**
 * Above this many bytes of heap after a page, the Tesseract instance is
 * dropped and the next page starts a fresh one: WebAssembly memory never
 * shrinks, and a large page leaves its buffers' high-water mark behind for
 * the isolate's life. A fresh instance with the English model costs about
 * 0.1 s (docs/tools/ocr.md).
 */
export const OCR_RECYCLE_BYTES = 72 * 1024 * 1024;

export interface OcrInstance {
  lib: TesseractLib;
  engine: TessEngine;
  heap: WebAssembly.Memory;
}

let loading: Promise<OcrInstance> | undefined;
let current: OcrInstance | undefined;
const stats = { instances: 0, recycled: 0, releasedIdle: 0 };

/**
 * The Tesseract instance, the English model loaded. Recognition is
 * synchronous, so a page never shares the instance with another request
 * mid-way; a call asks again for each page, which lets the instance be
 * replaced or released between pages.
 */
export function loadOcr(): Promise<OcrInstance> {
  noteHeapUse("ocr");
  loading ??= start().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function start(): Promise<OcrInstance> {
  let heap: WebAssembly.Memory | undefined;
  const lib = await createTesseract({
    // Workers cannot compile WASM from bytes: hand Emscripten the module the
    // bundler compiled, instantiated synchronously, as MuPDF's (loader.ts says why).
    instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
      const instance = new WebAssembly.Instance(tesseractWasm, imports);
      heap = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
      done(instance, tesseractWasm);
      return instance.exports;
    },
    // Tesseract prints parameter warnings to stdout; they are noise in Worker logs.
    print: () => undefined,
    printErr: () => undefined,
  });
  if (!heap) throw new Error("Tesseract started without a WebAssembly memory");
  const engine = new lib.OCREngine();
  const loaded = engine.loadModel(new Uint8Array(engModel));
  if (loaded.error) throw new Error(`The OCR model did not load: ${loaded.error}`);
  current = { lib, engine, heap };
  stats.instances++;
  return current;
}

/** Bytes of the live Tesseract heap (0 before the first OCR or after a release). */
export function ocrHeapBytes(): number {
  return current?.heap.buffer.byteLength ?? 0;
}

/** After a page: a grown instance is dropped so the next page starts small. */
export function afterOcrPage(): void {
  samplePeak();
  current?.engine.clearImage();
  if (ocrHeapBytes() > OCR_RECYCLE_BYTES) {
    drop();
    stats.recycled++;
  }
}

function drop(): void {
  current?.engine.delete();
  current = undefined;
  loading = undefined;
}

/** Instances started, replaced and released in this isolate (tests, GET /admin/v1/runtime through heapReport). */
export function ocrInstanceStats() {
  return { instances: stats.instances, recycled: stats.recycled, released_idle: stats.releasedIdle, recycle_above_bytes: OCR_RECYCLE_BYTES };
}

/** The memory governor asks only while no running call has used OCR (engines/heap.ts). */
function releaseIdleOcr(): boolean {
  if (!current) return false;
  drop();
  stats.releasedIdle++;
  return true;
}

registerHeap("ocr", ocrHeapBytes, releaseIdleOcr);
