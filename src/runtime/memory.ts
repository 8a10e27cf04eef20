import { AsyncLocalStorage } from "node:async_hooks";
import { idleBytes, peakReport, releaseIdleHeaps, samplePeak, setHeapUsers, wasmTotal } from "../engines/heap";
import { ApiError } from "../errors";
import { type CallLease, cancelled, currentLease, isLive, onAbort } from "./call-lease";

// The isolate's memory governor. A Worker isolate has 128 MB for JavaScript
// and every WebAssembly memory together, shared by all the requests it holds,
// and production kills an isolate that passes it (every request in it fails)
// while local workerd enforces nothing. So every tool call declares the
// memory it expects to need before it runs, and is admitted against what the
// whole isolate holds now: the live WASM heaps plus what the calls already
// running have reserved. A call that does not fit waits in a short FIFO
// queue; past its length or wait it is answered 503 with Retry-After, and
// the pipeline's refund guard gives any debit back.
//
// The sum is deliberately cautious: a running call's reservation and the
// heap growth it causes are both counted. That makes concurrent heavy calls
// take turns rather than meet at the limit.
//
// Idle engine instances (a MuPDF or codec heap no running call has used)
// are given back whenever a call would otherwise wait for their memory, so
// a big call at the head of the queue is held up only by memory that is
// really in use.
//
// A reservation belongs to its call's lease (call-lease.ts): when the
// client goes away, or the longest possible call has passed, it stops
// counting at once, whether or not the call's own code ever runs again, and
// a waiter whose request is gone is dropped from the queue, never admitted.

const MiB = 1024 * 1024;

export interface MemoryLimits {
  /** WASM heaps plus reservations may not pass this; the rest of the 128 MB is the JS heap and the runtime. */
  budgetBytes: number;
  /** Calls that may wait for memory at once. */
  queueLength: number;
  /** How long a call waits before it is answered 503. */
  queueWaitMs: number;
  /** When calls wait and none runs, idle engine instances are released until the heaps are at most this. */
  idleTargetBytes: number;
}

export const DEFAULT_MEMORY_LIMITS: Readonly<MemoryLimits> = {
  budgetBytes: 100 * MiB,
  queueLength: 64,
  queueWaitMs: 20_000,
  idleTargetBytes: 24 * MiB,
};

let limits: MemoryLimits = { ...DEFAULT_MEMORY_LIMITS };

/** Replaces some limits (operators through settings; tests that need a small budget). Answers the previous ones. */
export function configureMemory(next: Partial<MemoryLimits>): MemoryLimits {
  const previous = limits;
  limits = { ...limits, ...next };
  return previous;
}

interface Reservation {
  bytes: number;
  /** What the call's own scope holds (holdMemory): later estimates of nested work come on top of it. */
  held: number;
  label: string;
  lease: CallLease | null;
  /** Engines whose instance this call has taken (engines/heap.ts): not idle while it runs. */
  engines: Set<string>;
  started: number;
}

interface Waiter {
  reservation: Reservation;
  bytes: number;
  /** Set by wake(), read by the waiting call itself (see grow). */
  admitted: boolean;
}

/** How often a waiting call looks whether it was admitted. */
const POLL_MS = 10;

const scope = new AsyncLocalStorage<Reservation>();
const running = new Set<Reservation>();
const queue: Waiter[] = [];
const stats = { admitted: 0, queued: 0, refused: 0, releasedIdle: 0, largestReservation: 0, abandoned: 0 };

/** Drops what calls whose lease has ended still hold or wait for. */
function dropAbandoned(): void {
  for (const r of running) {
    if (isLive(r.lease)) continue;
    running.delete(r);
    stats.abandoned++;
  }
  for (let i = queue.length - 1; i >= 0; i--) {
    if (isLive(queue[i].reservation.lease)) continue;
    queue.splice(i, 1);
    stats.abandoned++;
  }
}

setHeapUsers({
  note(name) {
    scope.getStore()?.engines.add(name);
  },
  inUse(name, exceptCurrent) {
    const current = exceptCurrent ? scope.getStore() : undefined;
    for (const r of running) if (r !== current && isLive(r.lease) && r.engines.has(name)) return true;
    return false;
  },
});

const reserved = (except?: Reservation) => [...running].filter((r) => isLive(r.lease)).reduce((n, r) => (r === except ? n : n + r.bytes), 0);
const committed = (except?: Reservation) => wasmTotal() + reserved(except);

/**
 * Runs `work` as one call holding `bytes` of the budget, waiting for room
 * first. Nested calls (a tool that calls another engine) share the outer
 * reservation.
 */
export async function withMemory<T>(bytes: number, label: string, work: () => Promise<T>): Promise<T> {
  if (scope.getStore()) return work();
  const reservation: Reservation = { bytes: 0, held: 0, label, lease: currentLease(), engines: new Set(), started: Date.now() };
  // The abort listener runs even when the call's own code never resumes.
  const stopListening = reservation.lease
    ? onAbort(reservation.lease, () => {
        stats.abandoned++;
        release(reservation);
      })
    : () => undefined;
  try {
    await grow(reservation, bytes);
    return await scope.run(reservation, work);
  } finally {
    stopListening();
    release(reservation);
  }
}

/**
 * Raises the running call's reservation to `bytes` once an engine knows its
 * real plan (an image's size is known only from its header), waiting for
 * room like a new call. Outside a call it does nothing.
 */
export async function reserveMemory(bytes: number): Promise<void> {
  const reservation = scope.getStore();
  if (reservation && reservation.held + bytes > reservation.bytes) await grow(reservation, reservation.held + bytes);
}

/**
 * Adds `bytes` the running call keeps for itself until it ends (an MCP
 * call's arguments and the files decoded from them) to its reservation.
 * Estimates of work nested in it (the tool call it makes) are then counted
 * on top of these bytes instead of in place of them. Outside a call it does
 * nothing.
 */
export async function holdMemory(bytes: number): Promise<void> {
  const reservation = scope.getStore();
  if (!reservation || bytes <= 0) return;
  reservation.held += bytes;
  if (reservation.held > reservation.bytes) await grow(reservation, reservation.held);
}

function release(reservation: Reservation): void {
  running.delete(reservation);
  const waiting = queue.findIndex((w) => w.reservation === reservation);
  if (waiting >= 0) queue.splice(waiting, 1);
  samplePeak();
  wake();
}

async function grow(reservation: Reservation, bytes: number): Promise<void> {
  dropAbandoned();
  if (!isLive(reservation.lease)) throw cancelled();
  const wanted = Math.min(bytes, limits.budgetBytes);
  makeRoom(reservation, wanted);
  // A new call does not pass calls already waiting: small calls admitted
  // one after another past a big one would keep it waiting until it timed
  // out. A running call that needs more may (see wake).
  const waitedFor = !running.has(reservation) && queue.some((w) => !running.has(w.reservation));
  if (!waitedFor && fits(reservation, wanted)) return take(reservation, wanted);
  if (queue.length >= limits.queueLength) refuse(`${queue.length} calls already wait for memory`);
  stats.queued++;
  // The waiting call polls its own flag on its own timers. Workers forbid
  // settling a promise that another request created ("Cannot perform I/O on
  // behalf of a different request"), so the call that frees memory only
  // marks the waiter admitted.
  const waiter: Waiter = { reservation, bytes: wanted, admitted: false };
  // Running calls that need more are served before new ones (wake), since
  // they hold memory already and new calls may be waiting for exactly that.
  queue.push(waiter);
  wake();
  const deadline = Date.now() + limits.queueWaitMs;
  while (!waiter.admitted) {
    if (!isLive(reservation.lease)) {
      release(reservation);
      throw cancelled();
    }
    if (Date.now() >= deadline) {
      queue.splice(queue.indexOf(waiter), 1);
      refuse(`no memory came free within ${Math.round(limits.queueWaitMs / 1000)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    wake();
  }
}

/** No other call runs beside this one. */
const isAlone = (reservation: Reservation) => running.size === 0 || (running.size === 1 && running.has(reservation));

/**
 * Short of room for `bytes`, idle engines give their memory back first,
 * largest first, until the call would fit (engines a running call has used
 * stay). When even that would not make room, nothing is released: the call
 * waits for running calls either way, and the next call would only pay to
 * start the engine again. A call alone keeps the small idle heaps: it runs
 * either way.
 */
function makeRoom(reservation: Reservation, bytes: number): void {
  const over = committed(reservation) + bytes - limits.budgetBytes;
  if (over <= 0) return;
  const alone = isAlone(reservation);
  if (!alone && over > idleBytes()) return;
  const room = limits.budgetBytes - reserved(reservation) - bytes;
  stats.releasedIdle += releaseIdleHeaps(alone ? Math.max(limits.idleTargetBytes, room) : room).length;
}

/**
 * A call fits when the heaps and every other reservation leave room for it.
 * A call alone in the isolate always runs (after idle engines have given
 * their memory back): waiting would never make more room.
 */
function fits(reservation: Reservation, bytes: number): boolean {
  const alone = isAlone(reservation);
  // The oldest running call never waits to grow: were two running calls to
  // wait for each other's memory, neither would finish. Others that need more
  // wait for it (at the front of the queue), so calls finish in turn.
  const oldest = running.values().next().value === reservation;
  return alone || oldest || committed(reservation) + bytes <= limits.budgetBytes;
}

function take(reservation: Reservation, bytes: number): void {
  if (!running.has(reservation)) stats.admitted++;
  reservation.bytes = bytes;
  stats.largestReservation = Math.max(stats.largestReservation, bytes);
  running.add(reservation);
}

/**
 * Admits what can run now. Running calls that need more come first, oldest
 * first, each on its own (one that must wait never holds up an older one);
 * then new calls in arrival order, stopping at the first that does not fit
 * once idle engines have given back what they can.
 */
function wake(): void {
  dropAbandoned();
  const order = [...running];
  const growing = queue.filter((w) => running.has(w.reservation)).sort((x, y) => order.indexOf(x.reservation) - order.indexOf(y.reservation));
  for (const w of growing) {
    makeRoom(w.reservation, w.bytes);
    if (fits(w.reservation, w.bytes)) admit(w);
  }
  for (let head = queue.find((w) => !running.has(w.reservation)); head; head = queue.find((w) => !running.has(w.reservation))) {
    makeRoom(head.reservation, head.bytes);
    if (!fits(head.reservation, head.bytes)) return;
    admit(head);
  }
  if (running.size === 0 && wasmTotal() > limits.budgetBytes) stats.releasedIdle += releaseIdleHeaps(limits.idleTargetBytes).length;
}

function admit(w: Waiter): void {
  queue.splice(queue.indexOf(w), 1);
  take(w.reservation, w.bytes);
  w.admitted = true;
}

function refuse(why: string): never {
  stats.refused++;
  throw new ApiError("memory_busy", `This server is at its memory budget (${why}); nothing was charged. Retry shortly.`, {
    headers: { "Retry-After": "2" },
  });
}

/** For GET /admin/v1/runtime: the budget, what is held and reserved now, the peak since start, and the queue. */
export function memoryReport() {
  dropAbandoned();
  return {
    wasm_total: wasmTotal(),
    wasm_peak: samplePeak(),
    wasm_peak_heaps: peakReport(),
    budget: limits.budgetBytes,
    reserved: reserved(),
    largest_reservation: stats.largestReservation,
    running: running.size,
    // Which calls hold memory now, so a stuck or oversized one can be named.
    running_calls: [...running].map((r) => ({ tool: r.label, bytes: r.bytes, seconds: Math.round((Date.now() - r.started) / 1000), engines: [...r.engines] })),
    waiting: queue.length,
    admitted: stats.admitted,
    queued: stats.queued,
    refused: stats.refused,
    released_idle: stats.releasedIdle,
    abandoned: stats.abandoned,
  };
}
