// WASM heaps never shrink and local workerd does not enforce the 128 MB
// isolate limit, so each engine registers a probe here and the operator
// runtime endpoint (GET /admin/v1/runtime) reports them for `npm run bench`.
const probes = new Map<string, () => number>();

export function registerHeap(name: string, bytes: () => number): void {
  probes.set(name, bytes);
}

export function heapReport(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, probe] of probes) out[name] = probe();
  return out;
}
