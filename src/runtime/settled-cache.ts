// A value shared by every request of the isolate (a derived CryptoKey, a
// digest) and computed by whichever request first needs it. Only a settled
// value is shared, never a pending promise: a pending promise is an event of
// the request that started it, and when that request is cancelled (its
// client left) the promise may never settle. A second request awaiting it
// would then wait on nothing of its own, the runtime cancels it as hung
// (a 500 whose body is not ours), and what it holds stays held until its
// lease runs out. Requests that miss at the same moment each compute their
// own copy; the first to finish is kept.

/** A per-isolate cache whose lookups compute a missing value with `make`, sharing only values already computed. */
export function settledCache<V>(): (key: string, make: () => Promise<V>) => Promise<V> {
  const values = new Map<string, V>();
  return async (key, make) => {
    if (values.has(key)) return values.get(key) as V;
    const value = await make();
    if (!values.has(key)) values.set(key, value);
    return values.get(key) as V;
  };
}
