import createWebpBand, { type WebpBandModule } from "../../../../wasm/webp-band/webp_band.js";
import wasm from "../../../../wasm/webp-band/webp_band.wasm";
import { samplePeak } from "../../heap";
import { heapString } from "./emscripten";
import { type InstanceTicket, perCallInstances, type WithMemory } from "./per-call-instance";

// Our libwebp build for pictures too big for jSquash's whole-image codec
// (wasm/webp-band/, see its README): lossy WebP written from YUV planes
// filled band by band, and read a few macroblock rows at a time.
// One instance per call (per-call-instance.ts); the C side keeps one
// encoder and one decoder state.

export type WebpBand = WithMemory<WebpBandModule>;

const instances = perCallInstances("webp_band", createWebpBand as never, wasm);

/** A fresh instance for one call; give it back with `closeWebpBand`. */
export function openWebpBand(): Promise<{ m: WebpBand; ticket: InstanceTicket }> {
  return instances.open() as Promise<{ m: WebpBand; ticket: InstanceTicket }>;
}

/** The call is done with its instance: its heap is counted no more (and goes with the last reference). */
export function closeWebpBand(ticket: InstanceTicket): void {
  samplePeak();
  instances.close(ticket);
}

/** The C side's last message. */
export function bandMessage(m: WebpBand): string {
  return heapString(m.HEAPU8, m._band_message());
}
