import { AsyncLocalStorage } from "node:async_hooks";
import type { Mupdf } from "./loader";

// Every MuPDF.js wrapper (PDFObject, Page, Buffer, Font, ...) holds a
// reference on a C object that only its destroy() or a FinalizationRegistry
// callback gives back. V8 runs those callbacks late or not at all while an
// isolate is busy, and one forgotten `page.getObject().get("Resources")`
// keeps a whole dictionary tree alive after its document is gone: the WASM
// heap grew by 20-40 MB per 100 calls (issue #18). So every wrapper made
// while a call runs is recorded against that call (AsyncLocalStorage keeps
// concurrent calls of one isolate apart) and destroyed when the call ends,
// newest first, on the error paths too.

interface Destroyable {
  destroy(): void;
}

interface WrapperClass {
  _drop?: (pointer: number) => void;
  _finalizer?: unknown;
}

/** What one API call did with MuPDF. */
export interface MupdfCall {
  /** Wrappers made during the call, in order. */
  made: Destroyable[];
  /** Whether the call asked for MuPDF at all (image calls do not). */
  usesMupdf: boolean;
}

const calls = new AsyncLocalStorage<MupdfCall>();

/** The call running in this async context, if any. */
export const currentCall = (): MupdfCall | undefined => calls.getStore();

/**
 * Replaces each wrapper class's finalizer registry (MuPDF.js creates it
 * lazily per class) with one that also records the new wrapper in the
 * running call. Wrappers made outside a call keep the plain behaviour.
 */
export function trackWrappers(mupdf: Mupdf): void {
  for (const value of Object.values(mupdf) as unknown[]) {
    if (typeof value !== "function") continue;
    const cls = value as WrapperClass;
    if (typeof cls._drop !== "function") continue;
    const registry = new FinalizationRegistry<number>(cls._drop);
    cls._finalizer = {
      register(target: Destroyable, pointer: number, token: object) {
        registry.register(target, pointer, token);
        calls.getStore()?.made.push(target);
      },
      unregister: (token: object) => registry.unregister(token),
    };
  }
}

/** Runs `work` as one call: every MuPDF wrapper it makes is destroyed when it settles. */
export async function withTrackedWrappers<T>(call: MupdfCall, work: () => Promise<T>): Promise<T> {
  try {
    return await calls.run(call, work);
  } finally {
    destroyAll(call.made);
  }
}

/** For objects cached across calls (a font installed once per instance): made outside any call. */
export function outsideCalls<T>(make: () => T): T {
  return calls.exit(make);
}

function destroyAll(made: Destroyable[]): void {
  for (let i = made.length - 1; i >= 0; i--) {
    try {
      made[i].destroy();
    } catch {
      // A wrapper whose owner is already gone: nothing left to give back.
    }
  }
  made.length = 0;
}
