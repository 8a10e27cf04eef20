import mupdfWasm from "../../../wasm/mupdf-wasm.wasm";
import { registerHeap } from "../heap";

export type Mupdf = typeof import("mupdf");

// MuPDF is instantiated once per isolate behind a cached promise; a failed
// start clears the cache so the next request can try again.
let loading: Promise<Mupdf> | undefined;
let heap: WebAssembly.Memory | undefined;

interface EmscriptenModuleHooks {
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
}

export function loadMupdf(): Promise<Mupdf> {
  loading ??= start().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function start(): Promise<Mupdf> {
  const hooks: EmscriptenModuleHooks = {
    // Workers cannot compile WASM from bytes; hand Emscripten the module the
    // bundler already compiled.
    instantiateWasm(imports, done) {
      void WebAssembly.instantiate(mupdfWasm, imports).then((instance) => {
        heap = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
        done(instance, mupdfWasm);
      });
      return {};
    },
  };
  (globalThis as Record<string, unknown>).$libmupdf_wasm_Module = hooks;
  const mupdf = await import("mupdf");
  quietMupdfLog(mupdf);
  return mupdf;
}

/**
 * MuPDF prints every repair warning of every user document to the console by
 * default; that is noise in Worker logs. Code that needs the messages
 * collects them for one call (withMupdfLog) and then restores this.
 */
export function quietMupdfLog(mupdf: Mupdf): void {
  mupdf.setLog(() => undefined);
}

/** Bytes currently reserved by the MuPDF WASM heap (it never shrinks). */
export function mupdfHeapBytes(): number {
  return heap?.buffer.byteLength ?? 0;
}

registerHeap("mupdf", mupdfHeapBytes);
