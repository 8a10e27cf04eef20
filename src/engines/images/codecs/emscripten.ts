import { heapInUse, noteHeapUse, registerHeap, samplePeak } from "../../heap";
import { ensureImageData } from "./image-data";
import { lazy, type Lazy } from "./once";

// jSquash's Emscripten codecs, instantiated from a precompiled module (Workers
// forbid compiling WASM from bytes) with two additions: the heap is reported
// to the runtime probe, and libjpeg/libwebp/libavif messages are captured so a
// failure can say why, in the codec's own words.

interface EmscriptenOptions {
  noInitialRun: boolean;
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): WebAssembly.Exports;
  print(text: string): void;
  printErr(text: string): void;
}

export type EmscriptenFactory<M> = (options: EmscriptenOptions) => Promise<M>;

export interface LoadedCodec<M> {
  module: M;
  /** Messages the codec printed since the last `clear()`. */
  messages: string[];
  clear(): void;
}

function findMemory(instance: WebAssembly.Instance, imports: WebAssembly.Imports): WebAssembly.Memory | undefined {
  for (const v of Object.values(instance.exports)) if (v instanceof WebAssembly.Memory) return v;
  for (const ns of Object.values(imports)) {
    for (const v of Object.values(ns as Record<string, unknown>)) if (v instanceof WebAssembly.Memory) return v;
  }
  return undefined;
}

interface Slot {
  memory?: WebAssembly.Memory;
  loader?: Lazy<unknown>;
}
const slots = new Map<string, Slot>();

function slot(name: string): Slot {
  let s = slots.get(name);
  if (!s) {
    const created: Slot = {};
    s = created;
    slots.set(name, created);
    registerHeap(
      name,
      () => created.memory?.buffer.byteLength ?? 0,
      () => drop(created),
    );
  }
  return s;
}

/**
 * A WASM heap never shrinks, so one big image would keep tens of MB for the
 * isolate's life. Codecs whose heap grew past `limitBytes` are dropped and
 * re-instantiated on next use (about 20 ms from the precompiled module).
 */
export function trimCodecHeaps(limitBytes: number): void {
  samplePeak();
  // Another running call may hold a codec across an await: it stays.
  for (const [name, s] of slots) if (s.memory && s.memory.buffer.byteLength > limitBytes && !heapInUse(name, true)) drop(s);
}

/** Forgets a codec's instance, so its memory goes with the last reference; the next use instantiates afresh. */
function drop(s: Slot): boolean {
  if (!s.memory || !s.loader) return false;
  s.loader.reset();
  s.memory = undefined;
  return true;
}

/** Instantiates an Emscripten codec lazily, once, and makes it trimmable. */
export function emscriptenCodec<M>(name: string, factory: EmscriptenFactory<M>, wasm: WebAssembly.Module): Lazy<LoadedCodec<M>> {
  const loader = lazy(() => loadEmscripten(name, factory, wasm));
  slot(name).loader = loader as Lazy<unknown>;
  const take = (() => {
    noteHeapUse(name);
    return loader();
  }) as Lazy<LoadedCodec<M>>;
  take.reset = loader.reset;
  return take;
}

async function loadEmscripten<M>(name: string, factory: EmscriptenFactory<M>, wasm: WebAssembly.Module): Promise<LoadedCodec<M>> {
  ensureImageData();
  const messages: string[] = [];
  const module = await factory({
    noInitialRun: true,
    instantiateWasm(imports, done) {
      const instance = new WebAssembly.Instance(wasm, imports);
      slot(name).memory = findMemory(instance, imports);
      done(instance);
      return instance.exports;
    },
    print: (text) => messages.push(text),
    printErr: (text) => messages.push(text),
  });
  return { module, messages, clear: () => void messages.splice(0) };
}

/** The NUL-terminated string at `at` in an Emscripten heap (our C sides' messages), at most `max` characters. */
export function heapString(heap: Uint8Array, at: number, max = 300): string {
  let s = "";
  for (let i = at; heap[i] && s.length < max; i++) s += String.fromCharCode(heap[i]);
  return s;
}

/** A thrown Emscripten ExitStatus or Error, as text. */
export function describeFailure(err: unknown, messages: readonly string[]): string {
  const said = messages.filter((m) => m.trim()).join("; ");
  if (said) return said;
  if (err instanceof Error) return err.message;
  return "the decoder rejected the data";
}
