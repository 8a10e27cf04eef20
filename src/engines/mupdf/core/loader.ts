import createMupdf from "../../../../wasm/mupdf-factory.js";
import mupdfWasm from "../../../../wasm/mupdf-wasm.wasm";
import { type CallLease, cancelled, currentLease, isLive } from "../../../runtime/call-lease";
import { noteHeapUse, registerHeap, samplePeak } from "../../heap";
import { currentCall, trackWrappers, withTrackedWrappers, type MupdfCall } from "./lifetime";

export type Mupdf = typeof import("mupdf");

/**
 * Above this many bytes of WASM heap after a call, the MuPDF instance is
 * replaced once no call is using it. WebAssembly memory never shrinks: one
 * image-heavy compression leaves MuPDF at 55-115 MB for the isolate's life,
 * and fragmentation makes even small calls creep upwards, while the whole
 * isolate (every engine, every request) has 128 MB. A fresh instance costs
 * about 17 ms and starts at 22 MB (docs/memory.md).
 */
export const MUPDF_RECYCLE_BYTES = 48 * 1024 * 1024;

interface Instance {
  mupdf: Mupdf;
  heap: WebAssembly.Memory;
}

interface EmscriptenModuleHooks {
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
}

// One instance at a time per isolate, behind a cached promise; a failed
// start clears the cache so the next request can try again.
let loading: Promise<Instance> | undefined;
let current: Instance | undefined;
/**
 * MuPDF calls under way, each with the lease of the request that owns it.
 * A call whose request was cancelled may never reach its `finally` (see
 * call-lease.ts); it stops counting ABANDONED_GRACE_MS after its lease
 * ended, so a vanished client can neither pin a grown instance nor stall
 * the calls waiting for its replacement. The grace covers local workerd,
 * where a cancelled call's code does run on to its end.
 */
const running = new Map<MupdfCall, { lease: CallLease | null; deadSince: number | null }>();
const ABANDONED_GRACE_MS = 5_000;

function callsRunning(): number {
  const now = Date.now();
  for (const [call, owner] of running) {
    if (isLive(owner.lease)) continue;
    owner.deadSince ??= now;
    if (now - owner.deadSince >= ABANDONED_GRACE_MS) {
      running.delete(call);
      stats.abandoned++;
    }
  }
  return running.size;
}
const stats = { instances: 0, recycled: 0, releasedIdle: 0, replacementsAbandoned: 0, abandoned: 0 };

/**
 * The MuPDF instance for the running call. The first time a call asks, it
 * is counted as a MuPDF call and, while an instance is being replaced,
 * waits for the replacement (see withMupdfCall).
 */
export async function loadMupdf(): Promise<Mupdf> {
  const call = currentCall();
  const lease = currentLease();
  // A call whose client is gone starts no more MuPDF work.
  if (!isLive(lease)) throw cancelled();
  // Named in the call's reservation, so the runtime report shows it and the governor never counts it idle.
  noteHeapUse("mupdf");
  if (call && !call.usesMupdf) {
    await replacementDone();
    call.usesMupdf = true;
    running.set(call, { lease, deadSince: null });
  }
  loading ??= start().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return (await loading).mupdf;
}

async function start(): Promise<Instance> {
  let heap: WebAssembly.Memory | undefined;
  const hooks: EmscriptenModuleHooks = {
    // Workers cannot compile WASM from bytes; hand Emscripten the module the
    // bundler already compiled. Instantiated synchronously: the instance is
    // shared by every request, and an asynchronous instantiation would be an
    // event of the request that happened to start it. Were that request
    // cancelled meanwhile, the calls awaiting the same start would wait on
    // an event that never comes, and the runtime cancels them as hung.
    instantiateWasm(imports, done) {
      const instance = new WebAssembly.Instance(mupdfWasm, imports);
      heap = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
      done(instance, mupdfWasm);
      return instance.exports;
    },
  };
  const mupdf = await createMupdf(hooks);
  if (!heap) throw new Error("MuPDF started without a WebAssembly memory");
  quietMupdfLog(mupdf);
  trackWrappers(mupdf);
  current = { mupdf, heap };
  stats.instances++;
  return current;
}

/**
 * The boundary of one API call: every MuPDF wrapper it made is destroyed and
 * MuPDF's cache of decoded objects emptied. When a MuPDF call ends with the
 * heap above MUPDF_RECYCLE_BYTES, the instance is dropped (its memory goes
 * with its last reference) and the next call starts a fresh one. Only one
 * instance may run at a time, since MuPDF's C side calls back into
 * JavaScript through globals that belong to the newest instance: while
 * other MuPDF calls still run on the instance due for replacement, calls
 * that ask for MuPDF wait (under constant load there may be no idle moment
 * otherwise). Calls that never touch MuPDF (images) are not held.
 */
export async function withMupdfCall<T>(work: () => Promise<T>): Promise<T> {
  const call: MupdfCall = { made: [], usesMupdf: false };
  try {
    return await withTrackedWrappers(call, work);
  } finally {
    if (call.usesMupdf) afterMupdfCall(call);
  }
}

function afterMupdfCall(call: MupdfCall): void {
  samplePeak();
  running.delete(call);
  current?.mupdf.emptyStore();
  if (mupdfHeapBytes() > MUPDF_RECYCLE_BYTES) replacing ??= gate();
  replaceWhenIdle();
}

/** Swaps in a fresh instance once no live MuPDF call runs on the one due for replacement. */
function replaceWhenIdle(): void {
  if (callsRunning() === 0 && replacing) {
    recycle();
    replacing.open();
    replacing = undefined;
  }
}

/**
 * A call that has waited this long for a replacement stops waiting, and so
 * do the others: the grown instance goes on serving until the next moment
 * no MuPDF call runs. A call that never settles must not stall the isolate.
 */
const MAX_REPLACEMENT_WAIT_MS = 30_000;

interface Gate {
  /** Set when the replacement is done; waiting calls poll it. */
  opened: boolean;
  open: () => void;
}
let replacing: Gate | undefined;

function gate(): Gate {
  const g: Gate = { opened: false, open: () => void (g.opened = true) };
  return g;
}

/** How often a call waiting for a replacement looks whether it is done. */
const POLL_MS = 10;

/**
 * Waits, on this call's own timers, until the replacement is done. Workers
 * forbid settling a promise another request created ("Cannot perform I/O on
 * behalf of a different request"), so the call that finishes the
 * replacement only sets a flag.
 */
async function replacementDone(): Promise<void> {
  const waiting = replacing;
  if (!waiting) return;
  const deadline = Date.now() + MAX_REPLACEMENT_WAIT_MS;
  while (!waiting.opened) {
    // The last call on the old instance may have been abandoned (its client left).
    replaceWhenIdle();
    if (waiting.opened) return;
    if (Date.now() >= deadline) {
      if (replacing === waiting) {
        stats.replacementsAbandoned++;
        replacing = undefined;
      }
      waiting.open();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function recycle(): void {
  loading = undefined;
  current = undefined;
  stats.recycled++;
}

/**
 * MuPDF prints every repair warning of every user document to the console by
 * default; that is noise in Worker logs. Code that needs the messages
 * collects them for one call (withMupdfLog) and then restores this.
 */
export function quietMupdfLog(mupdf: Mupdf): void {
  mupdf.setLog(() => undefined);
}

/** Bytes currently reserved by the live MuPDF WASM heap (0 before the first call or after a recycle). */
export function mupdfHeapBytes(): number {
  return current?.heap.buffer.byteLength ?? 0;
}

/** Instances started and replaced in this isolate, for GET /admin/v1/runtime. */
export function mupdfInstanceStats() {
  return {
    instances: stats.instances,
    recycled: stats.recycled,
    released_idle: stats.releasedIdle,
    replacements_abandoned: stats.replacementsAbandoned,
    // Calls counted out because their client went away before they ended.
    abandoned_calls: stats.abandoned,
    recycle_above_bytes: MUPDF_RECYCLE_BYTES,
  };
}

/** Drops an idle instance when the isolate needs its memory (the memory governor asks only while no call runs). */
function releaseIdleMupdf(): boolean {
  if (!current || callsRunning() > 0 || replacing) return false;
  loading = undefined;
  current = undefined;
  stats.releasedIdle++;
  return true;
}

registerHeap("mupdf", mupdfHeapBytes, releaseIdleMupdf);
