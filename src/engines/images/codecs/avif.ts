import decFactory from "@jsquash/avif/codec/dec/avif_dec.js";
import decWasm from "../../../../wasm/avif_dec.wasm";
import { EngineError } from "../../errors";
import { encodeAvifStill } from "../avif/still";
import type { Pixels } from "../types";
import { describeFailure, emscriptenCodec, type EmscriptenFactory } from "./emscripten";

// Decoding: jSquash's libavif + aom build. Encoding: our own AV1 still
// encoder (codecs/av1-still.ts) and AVIF writer (avif/still.ts).

interface DecoderModule {
  decode(data: Uint8Array, bitDepth: 8): { data: Uint8ClampedArray; width: number; height: number } | null;
}

const decoder = emscriptenCodec("avif_dec", decFactory as unknown as EmscriptenFactory<DecoderModule>, decWasm);

/**
 * Whether this build carries the AVIF codec. api.md makes AVIF an optional
 * plugin (422 when absent); this build always has it, but callers keep the
 * check so a build without the WASM only has to flip this.
 */
export const AVIF_AVAILABLE = true;

export async function decodeAvif(bytes: Uint8Array): Promise<Pixels> {
  const { module, messages, clear } = await decoder();
  clear();
  let img: ReturnType<DecoderModule["decode"]> = null;
  try {
    img = module.decode(bytes, 8);
  } catch (err) {
    throw new EngineError("corrupt", `The AVIF could not be decoded: ${describeFailure(err, messages)}.`);
  }
  if (!img) throw new EngineError("corrupt", "The AVIF could not be decoded (damaged, truncated or unsupported data).");
  return { data: img.data, width: img.width, height: img.height };
}

/**
 * 4:2:0 unless told otherwise: 4:4:4 is for grid tiles of a picture with an
 * odd side, which a 4:2:0 grid cannot have (avif/grid-writer.ts). An alpha
 * item is written when any pixel is not opaque.
 */
export function encodeAvif(pixels: Pixels, quality: number, opts: { chroma?: "420" | "444" } = {}): Promise<Uint8Array> {
  return encodeAvifStill(pixels, quality, { chroma: opts.chroma });
}
