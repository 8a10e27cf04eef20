import type { SinkRoad, SourceRoad } from "./paths";

// How many image calls took each road since the isolate started, reported by
// GET /admin/v1/runtime. Local workerd enforces no memory limit, so an output
// check passes whichever road ran: tests that claim a road read these counts.

const sources: Partial<Record<SourceRoad, number>> = {};
const sinks: Partial<Record<SinkRoad, number>> = {};

export function recordSource(road: SourceRoad): void {
  sources[road] = (sources[road] ?? 0) + 1;
}

export function recordSink(road: SinkRoad): void {
  sinks[road] = (sinks[road] ?? 0) + 1;
}

export function imageRoadsTaken(): { sources: Partial<Record<SourceRoad, number>>; sinks: Partial<Record<SinkRoad, number>> } {
  return { sources: { ...sources }, sinks: { ...sinks } };
}
