// The WASM heaps of one isolate. A WebAssembly memory grows and never
// shrinks, every engine's counts in the isolate's 128 MB, and local workerd
// enforces nothing, so each engine registers here how big its heap is and,
// where it can, how to give an idle instance back (its memory goes with its
// last reference; the next call re-instantiates the compiled module in
// milliseconds). The memory governor (src/runtime/memory.ts) and the
// operator endpoint GET /admin/v1/runtime read this.

interface Heap {
  bytes: () => number;
  /** Drops the engine's instance if it holds one; true when memory was given back. Called only while no running call has used the engine. */
  release?: () => boolean;
}

/**
 * Which engines the running calls hold. The memory governor knows the calls
 * and installs this (src/runtime/memory.ts); engines only say when a call is
 * about to use them. An engine a running call has used is never released
 * under it, even while that call waits at an `await`: it may hold the
 * instance, whose memory would then stay alive while the report said it
 * was gone.
 */
export interface HeapUsers {
  /** The current call is about to use engine `name`. */
  note(name: string): void;
  /** A running call has used engine `name`; with `exceptCurrent`, one other than the current call. */
  inUse(name: string, exceptCurrent: boolean): boolean;
}

let users: HeapUsers = { note: () => undefined, inUse: () => false };

export function setHeapUsers(next: HeapUsers): void {
  users = next;
}

/** Engines call this whenever a call takes their instance. */
export const noteHeapUse = (name: string): void => users.note(name);

export const heapInUse = (name: string, exceptCurrent = false): boolean => users.inUse(name, exceptCurrent);

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

const idle = ([name, h]: [string, Heap]) => h.release !== undefined && h.bytes() > 0 && !heapInUse(name);

/** Bytes that releaseIdleHeaps could give back now (an engine may still refuse, mid-call in its own way). */
export function idleBytes(): number {
  let total = 0;
  for (const entry of heaps) if (idle(entry)) total += entry[1].bytes();
  return total;
}

/**
 * Gives idle instances back, largest heap first, until the heaps together
 * are at most `targetBytes`. Engines a running call has used are left
 * alone (see HeapUsers). Answers the names released.
 */
export function releaseIdleHeaps(targetBytes: number): string[] {
  samplePeak();
  const released: string[] = [];
  const bySize = [...heaps.entries()].filter(idle).sort((a, b) => b[1].bytes() - a[1].bytes());
  for (const [name, heap] of bySize) {
    if (wasmTotal() <= targetBytes) break;
    if (heap.release?.()) released.push(name);
  }
  return released;
}
