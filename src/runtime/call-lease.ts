import { AsyncLocalStorage } from "node:async_hooks";
import { ApiError } from "../errors";

// Who owns a call's per-call state (a memory reservation, a MuPDF call, a
// debit). In production a client that disconnects cancels its request: code
// waiting on an `await` may never run again, `finally` included, so state
// released only in a `finally` would stay held for the isolate's life. Each
// piece of per-call state is therefore held under a lease that ends either
// when the request's signal aborts (compatibility flag
// `enable_request_signal`) or, should that never be observed, when the
// longest possible call has passed. Holders test `isLive` whenever they count
// what is held, so a dead owner's share is given back without its code
// running again.

/** No tool call runs longer than this; past it, whatever it still holds is treated as abandoned (and its debit refunded). */
export const CALL_LEASE_MS = 10 * 60 * 1000;

export interface CallLease {
  /** The request's signal: aborted when the client goes away. */
  readonly signal: AbortSignal | null;
  readonly expiresAt: number;
}

const scope = new AsyncLocalStorage<CallLease>();

export function leaseFor(signal: AbortSignal | null, ms: number = CALL_LEASE_MS): CallLease {
  return { signal, expiresAt: Date.now() + ms };
}

/** Whether the owner of `lease` may still be running. */
export function isLive(lease: CallLease | null | undefined): boolean {
  if (!lease) return true;
  return !lease.signal?.aborted && Date.now() < lease.expiresAt;
}

/** Runs `work` with `lease` as the owner of everything it holds. */
export function withLease<T>(lease: CallLease, work: () => Promise<T>): Promise<T> {
  return scope.run(lease, work);
}

/** The lease of the call running in this async context; null outside a call (tests, start-up). */
export function currentLease(): CallLease | null {
  return scope.getStore() ?? null;
}

/** Calls `onEnd` once, synchronously, when the lease's request is aborted; answers a function that stops listening. */
export function onAbort(lease: CallLease, onEnd: () => void): () => void {
  const signal = lease.signal;
  if (!signal) return () => undefined;
  if (signal.aborted) {
    onEnd();
    return () => undefined;
  }
  signal.addEventListener("abort", onEnd, { once: true });
  return () => signal.removeEventListener("abort", onEnd);
}

/**
 * What a call whose client is gone throws at its next step. Nobody reads the
 * answer; its status (499, as proxies log it) keeps it out of the 4xx
 * answers an Idempotency-Key keeps, so the client's retry runs afresh.
 */
export function cancelled(): ApiError {
  return new ApiError("request_cancelled", "The client closed the request before it was answered; nothing was charged.");
}
