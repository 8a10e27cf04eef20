import decFactory from "@jsquash/webp/codec/dec/webp_dec.js";
import encFactory from "@jsquash/webp/codec/enc/webp_enc_simd.js";
import { defaultOptions } from "@jsquash/webp/meta.js";
import decWasm from "../../../../wasm/webp_dec.wasm";
import encWasm from "../../../../wasm/webp_enc_simd.wasm";
import { EngineError } from "../../errors";
import type { Pixels } from "../types";
import { describeFailure, emscriptenCodec, type EmscriptenFactory } from "./emscripten";

// libwebp. The encoder is the SIMD build: jSquash picks it by feature
// detection, which would need to compile WASM from bytes; workerd has SIMD.

type WebpOptions = typeof defaultOptions;

interface DecoderModule {
  decode(data: Uint8Array): { data: Uint8ClampedArray; width: number; height: number } | null;
}
interface EncoderModule {
  encode(data: Uint8Array | Uint8ClampedArray, width: number, height: number, options: WebpOptions): Uint8Array | null;
}

const decoder = emscriptenCodec("webp_dec", decFactory as unknown as EmscriptenFactory<DecoderModule>, decWasm);
const encoder = emscriptenCodec("webp_enc", encFactory as unknown as EmscriptenFactory<EncoderModule>, encWasm);

/** Decodes a still WebP (callers unwrap the first frame of an animation first). */
export async function decodeWebp(bytes: Uint8Array): Promise<Pixels> {
  const { module, messages, clear } = await decoder();
  clear();
  let img: ReturnType<DecoderModule["decode"]> = null;
  try {
    img = module.decode(bytes);
  } catch (err) {
    throw new EngineError("corrupt", `The WebP could not be decoded: ${describeFailure(err, messages)}.`);
  }
  if (!img) throw new EngineError("corrupt", "The WebP could not be decoded (damaged or truncated data).");
  return { data: img.data, width: img.width, height: img.height };
}

/** Lossy WebP at quality 1..100 (alpha kept, lossless alpha plane), or lossless when asked. */
export async function encodeWebp(pixels: Pixels, quality: number, lossless = false): Promise<Uint8Array> {
  const { module, messages, clear } = await encoder();
  clear();
  const options: WebpOptions = { ...defaultOptions, quality, lossless: lossless ? 1 : 0, exact: 0 };
  let out: Uint8Array | null = null;
  try {
    out = module.encode(pixels.data, pixels.width, pixels.height, options);
  } catch (err) {
    throw new Error(`WebP encode failed: ${describeFailure(err, messages)}`);
  }
  if (!out) throw new Error(`WebP encode failed: ${describeFailure(null, messages)}`);
  return new Uint8Array(out);
}
