import initPng, { decode, encode } from "@jsquash/png/codec/pkg/squoosh_png.js";
import pngWasm from "../../../../wasm/squoosh_png_bg.wasm";
import { registerHeap } from "../../heap";
import { EngineError } from "../../errors";
import { ensureImageData } from "./image-data";
import type { Pixels } from "../types";
import { lazy } from "./once";

// squoosh's PNG codec (Rust `png` crate): decodes every bit depth and colour
// type to RGBA8 (16-bit samples are reduced), encodes RGBA8. The engine reads
// PNGs with its own streaming reader (png/band-source.ts: no WASM heap, which
// here grows by 9 bytes a pixel and never shrinks, and no leak of the
// module's stack on each refused file); `decodePng` stays as the independent
// reference the tests compare that reader with.

const ready = lazy(async () => {
  ensureImageData();
  const exports = await initPng(pngWasm);
  registerHeap("squoosh_png", () => exports.memory.buffer.byteLength);
});

export async function decodePng(bytes: Uint8Array): Promise<Pixels> {
  await ready();
  try {
    const img = decode(bytes);
    return { data: img.data, width: img.width, height: img.height };
  } catch {
    throw new EngineError("corrupt", "The PNG could not be decoded (damaged or truncated data).");
  }
}

/** Plain RGBA8 PNG; callers hand it to oxipng for the small file. */
export async function encodePng(pixels: Pixels): Promise<Uint8Array> {
  await ready();
  const data = pixels.data instanceof Uint8Array ? pixels.data : new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.length);
  return encode(data, pixels.width, pixels.height, 8);
}
