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
