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

/**
 * A call's hold on its instance, given back to `close`. A plain token, not a
 * WeakRef: creating or dereferencing a WeakRef keeps its target alive to the
 * end of the current job, and a whole convert runs as one job (nothing in it
 * waits for I/O), so a reader closed before the writer's encode would have
 * kept its heap beside the writer's until the call ended (a 24 MP lossless
 * WebP to WebP: 13 MiB over its estimate).
 */
export type InstanceTicket = { readonly instanceTicket: true };

function findMemory(name: string, exports: WebAssembly.Exports): WebAssembly.Memory {
  for (const v of Object.values(exports)) if (v instanceof WebAssembly.Memory) return v;
  throw new Error(`${name} exports no memory`);
}

/** Opens instances of `wasm` for one call each; `close` stops counting one (it goes with its last reference). */
export function perCallInstances<M extends object>(name: string, factory: Factory<M>, wasm: WebAssembly.Module) {
  /**
   * The memories of open instances. A Memory does not hold its instance, so
   * an instance whose call failed before closing still goes with its garbage,
   * and `forget` then drops its memory from the count.
   */
  const live = new Map<InstanceTicket, WebAssembly.Memory>();
  const forget = new FinalizationRegistry<InstanceTicket>((ticket) => live.delete(ticket));
  const liveBytes = () => {
    let total = 0;
    for (const memory of live.values()) total += memory.buffer.byteLength;
    return total;
  };
  // Instances belong to running calls: there is never an idle one to give back.
  registerHeap(name, liveBytes, () => false);
  return {
    async open(): Promise<{ m: WithMemory<M>; ticket: InstanceTicket }> {
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
      const ticket: InstanceTicket = { instanceTicket: true };
      live.set(ticket, m.memory);
      forget.register(m, ticket, ticket);
      return { m, ticket };
    },
    close(ticket: InstanceTicket): void {
      live.delete(ticket);
      forget.unregister(ticket);
    },
  };
}
