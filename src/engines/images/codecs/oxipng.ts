import initOxipng, { optimise, optimise_raw } from "@jsquash/oxipng/codec/pkg/squoosh_oxipng.js";
import oxipngWasm from "../../../../wasm/squoosh_oxipng_bg.wasm";
import { registerHeap } from "../../heap";
import type { Pixels } from "../types";
import { lazy } from "./once";

// The single-threaded oxipng build: jSquash's wrapper would probe for threads
// and `ImageData`; Workers have neither, so we call the codec directly.

const ready = lazy(async () => {
  const exports = await initOxipng(oxipngWasm);
  registerHeap("squoosh_oxipng", () => exports.memory.buffer.byteLength);
});

/** Level 2 is oxipng's default trade-off; 3 tries more filters for little gain at twice the time. */
export const OXIPNG_LEVEL = 2;

/** Lossless PNG from RGBA pixels: oxipng picks colour type, bit depth (palette when <= 256 colours) and filters. */
export async function optimisePixels(pixels: Pixels, level = OXIPNG_LEVEL): Promise<Uint8Array> {
  await ready();
  const data = pixels.data instanceof Uint8ClampedArray ? pixels.data : new Uint8ClampedArray(pixels.data.buffer, pixels.data.byteOffset, pixels.data.length);
  // optimize_alpha: colour under fully transparent pixels is invisible; zeroing it compresses better.
  return optimise_raw(data, pixels.width, pixels.height, level, false, true);
}

/** Re-optimises an existing PNG file losslessly (ancillary chunks other than iCCP are dropped by our caller). */
export async function optimisePng(png: Uint8Array, level = OXIPNG_LEVEL): Promise<Uint8Array> {
  await ready();
  return optimise(png, level, false, true);
}
