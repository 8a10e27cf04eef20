import decFactory from "@jsquash/avif/codec/dec/avif_dec.js";
import decWasm from "../../../../wasm/avif_dec.wasm";
import { EngineError } from "../../errors";
import { encodeAvifStill } from "../avif/still";
import type { Pixels } from "../types";
import type { Av1TileContext } from "./av1-still";
import { describeFailure, emscriptenCodec, type EmscriptenFactory } from "./emscripten";

// Decoding: jSquash's libavif + aom build. Encoding: our own AV1 still
// encoder (codecs/av1-still.ts) and AVIF writer (avif/still.ts).

interface DecoderModule {
  decode(data: Uint8Array, bitDepth: 8): { data: Uint8ClampedArray; width: number; height: number } | null;
}

const decoder = emscriptenCodec("avif_dec", decFactory as unknown as EmscriptenFactory<DecoderModule>, decWasm);

/**
 * Whether this build carries the AVIF codec. The original API made AVIF an
 * optional plugin (422 when absent; docs/reference/images.md); this build
 * always has it, but callers keep the check so a build without the WASM only
 * has to flip this.
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
 * One AVIF frame, 4:2:0; an alpha item when any pixel is not opaque (grids:
 * avif/grid-writer.ts). `tools` imposes the screen-content search on the
 * colour and the alpha (codecs/encode.ts decides it); left out, aom decides
 * for itself.
 */
export function encodeAvif(pixels: Pixels, quality: number, tools: Pick<Av1TileContext, "screenTools" | "alphaScreenTools"> = {}): Promise<Uint8Array> {
  return encodeAvifStill(pixels, quality, tools);
}
