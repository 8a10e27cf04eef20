import createAv1Dec, { type Av1DecModule } from "../../../../../wasm/av1-dec/av1_dec.js";
import wasm from "../../../../../wasm/av1-dec/av1_dec.wasm";
import { samplePeak } from "../../../heap";
import { heapString } from "../../codecs/emscripten";
import { type InstanceTicket, perCallInstances, type WithMemory } from "../../codecs/per-call-instance";

// Our dav1d build (wasm/av1-dec/, see its README): AV1 frames decoded into
// YUV planes that stay in the WASM heap while the band source reads them.
//
// One instance per call (codecs/per-call-instance.ts): a 12 MP picture grows
// the heap to about 27 MB that a WASM memory never gives back.

export type Av1Dec = WithMemory<Av1DecModule>;

const instances = perCallInstances("av1_dec", createAv1Dec as never, wasm);

/** A fresh instance for one call; give it back with `closeAv1Dec`. */
export function openAv1Dec(): Promise<{ m: Av1Dec; ticket: InstanceTicket }> {
  return instances.open() as Promise<{ m: Av1Dec; ticket: InstanceTicket }>;
}

/** The call is done with its instance: its pictures are freed and its heap counted no more. */
export function closeAv1Dec(m: Av1Dec, ticket: InstanceTicket): void {
  samplePeak();
  m._dec_release();
  instances.close(ticket);
}

/** The C side's last message. */
export function av1Message(m: Av1Dec): string {
  return heapString(m.HEAPU8, m._dec_message());
}
