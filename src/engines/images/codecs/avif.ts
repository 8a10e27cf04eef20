import decFactory from "@jsquash/avif/codec/dec/avif_dec.js";
import encFactory from "@jsquash/avif/codec/enc/avif_enc.js";
import { defaultOptions } from "@jsquash/avif/meta.js";
import decWasm from "../../../../wasm/avif_dec.wasm";
import encWasm from "../../../../wasm/avif_enc.wasm";
import { EngineError } from "../../errors";
import type { Pixels } from "../types";
import { describeFailure, emscriptenCodec, type EmscriptenFactory } from "./emscripten";

// libavif + aom, single-threaded (workerd has no Worker threads for the MT build).

type AvifOptions = typeof defaultOptions;

interface DecoderModule {
  decode(data: Uint8Array, bitDepth: 8): { data: Uint8ClampedArray; width: number; height: number } | null;
}
interface EncoderModule {
  encode(data: Uint8Array, width: number, height: number, options: AvifOptions): Uint8Array | null;
}

const decoder = emscriptenCodec("avif_dec", decFactory as unknown as EmscriptenFactory<DecoderModule>, decWasm);
const encoder = emscriptenCodec("avif_enc", encFactory as unknown as EmscriptenFactory<EncoderModule>, encWasm);

/**
 * Whether this build carries the AVIF codec. api.md makes AVIF an optional
 * plugin (422 when absent); this build always has it, but callers keep the
 * check so a build without the WASM only has to flip this.
 */
export const AVIF_AVAILABLE = true;

/** Encoder speed 6 is libavif's and avifenc's default: the usual size/time balance. */
export const AVIF_SPEED = 6;

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
 * odd side, which a 4:2:0 grid cannot have (avif/grid-writer.ts).
 */
export async function encodeAvif(pixels: Pixels, quality: number, opts: { chroma?: "420" | "444" } = {}): Promise<Uint8Array> {
  const { module, messages, clear } = await encoder();
  clear();
  // jSquash's `subsample`: 1 is 4:2:0, 3 is 4:4:4.
  const options: AvifOptions = { ...defaultOptions, quality, speed: AVIF_SPEED, subsample: opts.chroma === "444" ? 3 : 1 };
  const data = pixels.data instanceof Uint8Array ? pixels.data : new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.length);
  let out: Uint8Array | null = null;
  try {
    out = module.encode(data, pixels.width, pixels.height, options);
  } catch (err) {
    throw new Error(`AVIF encode failed: ${describeFailure(err, messages)}`);
  }
  if (!out) throw new Error(`AVIF encode failed: ${describeFailure(null, messages)}`);
  return new Uint8Array(out);
}
