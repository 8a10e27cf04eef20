/**
 * Runs a codec's init once per isolate behind a cached promise; a failure
 * clears the cache so a later call can retry. (jSquash's own init
 * re-instantiates the module on every call.)
 */
export function once(init: () => Promise<void> | void): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () => {
    ready ??= Promise.resolve()
      .then(init)
      .catch((err: unknown) => {
        ready = undefined;
        throw err;
      });
    return ready;
  };
}

/** A lazily loaded value that can be dropped (so a grown WASM heap can be freed). */
export interface Lazy<T> {
  (): Promise<T>;
  reset(): void;
}

/** Like `once`, for an init that produces a value (a loaded codec). */
export function lazy<T>(init: () => Promise<T>): Lazy<T> {
  let ready: Promise<T> | undefined;
  const get = (() => {
    ready ??= init().catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    return ready;
  }) as Lazy<T>;
  get.reset = () => {
    ready = undefined;
  };
  return get;
}
