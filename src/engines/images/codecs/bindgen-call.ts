import { registerHeap, samplePeak } from "../../heap";

// The wasm-bindgen codecs (oxipng, squoosh's resize) called on a fresh
// instance each time. Their generated glue keeps one instance in module scope
// for the isolate's life, so the heap a big picture grew (tens of MB, and a
// WASM memory never shrinks) stayed resident between calls. Their exports are
// few and plain (bytes in, bytes out through a return slot on the shadow
// stack), so this file speaks that calling convention itself: the instance
// and its memory go with the call, and instantiating the compiled module
// takes about a millisecond.

interface BindgenExports {
  memory: WebAssembly.Memory;
  __wbindgen_add_to_stack_pointer(delta: number): number;
  __wbindgen_malloc(size: number, align: number): number;
  __wbindgen_free(ptr: number, size: number, align: number): void;
}

type Scalar = number | boolean;

/**
 * A wasm-bindgen module whose exports take `(retptr, bytesPtr, bytesLen, ...scalars)`
 * and return a byte vector. Its heap counts in the runtime's report under
 * `name` while a call runs (the calls are synchronous, so at most one lives).
 */
export function bindgenCodec(name: string, wasm: WebAssembly.Module) {
  let running: WebAssembly.Memory | undefined;
  registerHeap(
    name,
    () => running?.buffer.byteLength ?? 0,
    () => false,
  );
  const messages = new TextDecoder();

  return {
    /** Runs export `fn` on `input` and the scalar arguments; the answer is a copy outside the heap. */
    bytes(fn: string, input: Uint8Array, ...args: Scalar[]): Uint8Array {
      let memory: WebAssembly.Memory | undefined;
      const imports = {
        wbg: {
          // A Rust panic's message (oxipng's only import).
          __wbindgen_throw(ptr: number, len: number): never {
            throw new Error(memory ? messages.decode(new Uint8Array(memory.buffer, ptr, len)) : `${name} failed`);
          },
        },
      };
      const exports = new WebAssembly.Instance(wasm, imports).exports as unknown as BindgenExports & Record<string, (...a: number[]) => void>;
      memory = exports.memory;
      running = memory;
      try {
        const retptr = exports.__wbindgen_add_to_stack_pointer(-16);
        const at = exports.__wbindgen_malloc(input.length, 1) >>> 0;
        new Uint8Array(memory.buffer).set(input, at);
        exports[fn](retptr, at, input.length, ...args.map(Number));
        const [ptr, len] = new Int32Array(memory.buffer, retptr, 2);
        // Views of the heap are taken after the call: the memory may have grown (a new buffer).
        return new Uint8Array(memory.buffer, ptr >>> 0, len).slice();
      } finally {
        samplePeak();
        running = undefined;
      }
    },
  };
}
