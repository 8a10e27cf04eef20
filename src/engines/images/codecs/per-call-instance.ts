import { registerHeap } from "../../heap";

// Emscripten codecs of ours that get a fresh instance for every call (the
// banded WebP and AV1 builds): a big picture grows a WASM heap to tens of MB
// that a WASM memory never gives back, and instantiating the precompiled
// module takes about a millisecond, so each call's heap goes with the call
// and calls never share or wait for an instance. The heaps count in the
// runtime's report under `name` while their calls run.

type Factory<M> = (opts: {
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): WebAssembly.Exports;
  print(): void;
  printErr(): void;
}) => Promise<M>;

export type WithMemory<M> = M & { memory: WebAssembly.Memory };

function findMemory(name: string, exports: WebAssembly.Exports): WebAssembly.Memory {
  for (const v of Object.values(exports)) if (v instanceof WebAssembly.Memory) return v;
  throw new Error(`${name} exports no memory`);
}

/** Opens instances of `wasm` for one call each; `close` stops counting one (it goes with its last reference). */
export function perCallInstances<M extends object>(name: string, factory: Factory<M>, wasm: WebAssembly.Module) {
  /** Live instances (weak: one a failed call never closed goes with its garbage). */
  const live = new Set<WeakRef<WithMemory<M>>>();
  const liveBytes = () => {
    let total = 0;
    for (const ref of live) {
      const m = ref.deref();
      if (m) total += m.memory.buffer.byteLength;
      else live.delete(ref);
    }
    return total;
  };
  // Instances belong to running calls: there is never an idle one to give back.
  registerHeap(name, liveBytes, () => false);
  return {
    async open(): Promise<{ m: WithMemory<M>; ref: WeakRef<WithMemory<M>> }> {
      let memory: WebAssembly.Memory | undefined;
      const module = await factory({
        instantiateWasm(imports, done) {
          const instance = new WebAssembly.Instance(wasm, imports);
          memory = findMemory(name, instance.exports);
          done(instance);
          return instance.exports;
        },
        print: () => undefined,
        printErr: () => undefined,
      });
      const m = Object.assign(module, { memory: memory as WebAssembly.Memory });
      const ref = new WeakRef(m);
      live.add(ref);
      return { m, ref };
    },
    close(ref: WeakRef<WithMemory<M>>): void {
      live.delete(ref);
    },
  };
}
