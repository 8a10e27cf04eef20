import createInflateBand, { type InflateBandModule } from "../../../../wasm/inflate/inflate_band.js";
import wasm from "../../../../wasm/inflate/inflate_band.wasm";
import { heapString } from "./emscripten";
import { type InstanceTicket, perCallInstances, type WithMemory } from "./per-call-instance";

// zlib's inflate (wasm/inflate/, see its README) for the PNG band reader: one
// raw Deflate stream per instance, so concurrent reads never share a stream.
// Its heap is about a megabyte; one instance per call (per-call-instance.ts).

export type InflateBand = WithMemory<InflateBandModule>;

const instances = perCallInstances("inflate", createInflateBand as never, wasm);

/** A fresh instance for one stream; give it back with `closeInflateBand`. */
export function openInflateBand(): Promise<{ m: InflateBand; ticket: InstanceTicket }> {
  return instances.open() as Promise<{ m: InflateBand; ticket: InstanceTicket }>;
}

export function closeInflateBand(m: InflateBand, ticket: InstanceTicket): void {
  m._inf_close();
  instances.close(ticket);
}

/** The C side's last message. */
export function inflateMessage(m: InflateBand): string {
  return heapString(m.HEAPU8, m._inf_message());
}
