import oxipngWasm from "../../../../wasm/squoosh_oxipng_bg.wasm";
import type { Pixels } from "../types";
import { bindgenCodec } from "./bindgen-call";

// The single-threaded oxipng build (jSquash's): its wrapper would probe for
// threads and `ImageData`, and its glue would keep one heap for the isolate's
// life, so each call runs on an instance of its own (bindgen-call.ts).
const oxipng = bindgenCodec("squoosh_oxipng", oxipngWasm);

/** Level 2 is oxipng's default trade-off; 3 tries more filters for little gain at twice the time. */
export const OXIPNG_LEVEL = 2;

/** Lossless PNG from RGBA pixels: oxipng picks colour type, bit depth (palette when <= 256 colours) and filters. */
export async function optimisePixels(pixels: Pixels, level = OXIPNG_LEVEL): Promise<Uint8Array> {
  const data = new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.length);
  // optimize_alpha: colour under fully transparent pixels is invisible; zeroing it compresses better.
  return oxipng.bytes("optimise_raw", data, pixels.width, pixels.height, level, false, true);
}

/** Re-optimises an existing PNG file losslessly (ancillary chunks other than iCCP are dropped by our caller). */
export async function optimisePng(png: Uint8Array, level = OXIPNG_LEVEL): Promise<Uint8Array> {
  return oxipng.bytes("optimise", png, level, false, true);
}
