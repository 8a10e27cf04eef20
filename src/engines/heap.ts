// The WASM heaps of one isolate. A WebAssembly memory grows and never
// shrinks, every engine's counts in the isolate's 128 MB, and local workerd
// enforces nothing, so each engine registers here how big its heap is and,
// where it can, how to give an idle instance back (its memory goes with its
// last reference; the next call re-instantiates the compiled module in
// milliseconds). The memory governor (src/runtime/memory.ts) and the
// operator endpoint GET /admin/v1/runtime read this.

interface Heap {
  bytes: () => number;
  /** Drops the engine's instance if it holds one; true when memory was given back. Called only while no call runs. */
  release?: () => boolean;
}

const heaps = new Map<string, Heap>();
let peakBytes = 0;
let peakHeaps: Record<string, number> = {};

export function registerHeap(name: string, bytes: () => number, release?: () => boolean): void {
  heaps.set(name, { bytes, release });
}

/** Bytes of each engine's live heap. */
export function heapReport(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, heap] of heaps) out[name] = heap.bytes();
  return out;
}

/** Bytes of every live WASM heap together. */
export function wasmTotal(): number {
  let total = 0;
  for (const heap of heaps.values()) total += heap.bytes();
  return total;
}

/**
 * Records the heaps' high-water mark. Heaps only grow while they live, so
 * sampling where one is about to be dropped (a codec trimmed after a call, a
 * MuPDF instance replaced or released), at band boundaries and at the end of
 * every call catches the peak.
 */
export function samplePeak(): number {
  const total = wasmTotal();
  if (total > peakBytes) {
    peakBytes = total;
    peakHeaps = heapReport();
  }
  return peakBytes;
}

/** The heaps by engine at the moment of the peak: which engines were live together. */
export const peakReport = (): Record<string, number> => ({ ...peakHeaps });

/**
 * Gives idle instances back, largest heap first, until the heaps together
 * are at most `targetBytes`. Only for moments when no call runs: an engine
 * in use would keep its memory alive while the report said it was gone.
 * Answers the names released.
 */
export function releaseIdleHeaps(targetBytes: number): string[] {
  samplePeak();
  const released: string[] = [];
  const bySize = [...heaps.entries()].filter(([, h]) => h.release && h.bytes() > 0).sort((a, b) => b[1].bytes() - a[1].bytes());
  for (const [name, heap] of bySize) {
    if (wasmTotal() <= targetBytes) break;
    if (heap.release?.()) released.push(name);
  }
  return released;
}
