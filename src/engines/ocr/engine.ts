import createTesseract from "../../../wasm/tesseract-core.js";
import tesseractWasm from "../../../wasm/tesseract-core.wasm";
import { noteHeapUse, registerHeap, samplePeak } from "../heap";
import type { OcrLanguage } from "./languages";
import { modelBytes } from "./models";
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
  language: OcrLanguage;
}

let loading: Promise<OcrInstance> | undefined;
let current: OcrInstance | undefined;
const stats = { instances: 0, recycled: 0, releasedIdle: 0, languageSwitches: 0 };

/**
 * Runs `work` (synchronous: one band loaded and read) on the Tesseract
 * instance with `language`'s model loaded, so a band never shares the
 * instance with another request mid-way; a call asks again for each band,
 * which lets the instance be replaced or released in between. One instance
 * at a time, whatever the language: each starts near 16-28 MB of heap and
 * grows to OCR_RECYCLE_BYTES, so two would not fit the isolate's 128 MB
 * beside their images. Another language replaces it (0.1-0.3 s; R2 models'
 * bytes stay cached, models.ts).
 */
export async function withOcr<T>(language: OcrLanguage, work: (ocr: OcrInstance) => T): Promise<T> {
  noteHeapUse("ocr");
  for (;;) {
    const pending = (loading ??= start(language).catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
    const ocr = await pending;
    // Checked and used in one synchronous stretch: no other call can swap the instance in between.
    if (ocr.language === language && current === ocr) {
      try {
        return work(ocr);
      } finally {
        afterOcrPage();
      }
    }
    // Another call's language is loaded: replace it (once, whoever sees it first).
    if (loading === pending) {
      drop();
      stats.languageSwitches++;
    }
  }
}

async function start(language: OcrLanguage): Promise<OcrInstance> {
  const model = await modelBytes(language);
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
  const loaded = engine.loadModel(new Uint8Array(model));
  if (loaded.error) throw new Error(`The ${language} OCR model did not load: ${loaded.error}`);
  current = { lib, engine, heap, language };
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

/** Instances started, replaced (grown, or for another language) and released in this isolate (tests, GET /admin/v1/runtime through heapReport). */
export function ocrInstanceStats() {
  return {
    instances: stats.instances,
    recycled: stats.recycled,
    released_idle: stats.releasedIdle,
    language_switches: stats.languageSwitches,
    language: current?.language ?? null,
    recycle_above_bytes: OCR_RECYCLE_BYTES,
  };
}

/** The memory governor asks only while no running call has used OCR (engines/heap.ts). */
function releaseIdleOcr(): boolean {
  if (!current) return false;
  drop();
  stats.releasedIdle++;
  return true;
}

registerHeap("ocr", ocrHeapBytes, releaseIdleOcr);
