import { samplePeak } from "../../heap";

/**
 * Called at band boundaries of the streaming paths. In the Worker it records
 * the isolate's WASM high-water mark (engines/heap.ts); the memory benchmark
 * (scripts/bench/images.mjs, run in Node) replaces it to collect garbage and
 * sample live memory, which workerd cannot report.
 */
export const memoryProbe: { sample: () => void; planned: (estimateBytes: number) => void } = {
  sample: () => void samplePeak(),
  /** Each admitted plan's estimate (the limits benchmark sets it beside its measured peak). */
  planned: () => undefined,
};
