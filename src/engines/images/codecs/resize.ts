import resizeWasm from "../../../../wasm/squoosh_resize_bg.wasm";
import type { Pixels } from "../types";
import { bindgenCodec } from "./bindgen-call";

// squoosh's resize (Rust `resize` crate), one instance a call (bindgen-call.ts).
// Index 3 is Lanczos3 in its method table [triangle, catrom, mitchell, lanczos3].
const LANCZOS3 = 3;
const squooshResize = bindgenCodec("squoosh_resize", resizeWasm);

/**
 * Lanczos3 in linear light with premultiplied alpha, as squoosh does: no dark
 * halos at edges and no colour bleeding from transparent pixels.
 */
export async function resizeLanczos3(pixels: Pixels, width: number, height: number): Promise<Pixels> {
  const data = new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.length);
  const out = squooshResize.bytes("resize", data, pixels.width, pixels.height, width, height, LANCZOS3, true, true);
  return { data: new Uint8ClampedArray(out.buffer, out.byteOffset, out.length), width, height };
}
