/**
 * Called at band boundaries of the streaming paths. A no-op in the Worker;
 * the memory benchmark (scripts/bench/images.mjs, run in Node) sets it to
 * collect garbage and sample live memory, which workerd cannot report.
 */
export const memoryProbe: { sample: () => void } = { sample: () => undefined };
