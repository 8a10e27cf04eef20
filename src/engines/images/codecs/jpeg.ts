import decFactory from "@jsquash/jpeg/codec/dec/mozjpeg_dec.js";
import encFactory from "@jsquash/jpeg/codec/enc/mozjpeg_enc.js";
import { defaultOptions } from "@jsquash/jpeg/meta.js";
import decWasm from "../../../../wasm/mozjpeg_dec.wasm";
import encWasm from "../../../../wasm/mozjpeg_enc.wasm";
import { EngineError } from "../../errors";
import type { Pixels } from "../types";
import { describeFailure, emscriptenCodec, type EmscriptenFactory } from "./emscripten";

export type { Pixels } from "../types";

type MozJpegOptions = typeof defaultOptions;

interface DecoderModule {
  decode(data: Uint8Array, preserveOrientation: boolean): { data: Uint8ClampedArray; width: number; height: number } | null;
}
interface EncoderModule {
  encode(data: Uint8Array | Uint8ClampedArray, width: number, height: number, options: MozJpegOptions): Uint8Array;
}

const decoder = emscriptenCodec("mozjpeg_dec", decFactory as unknown as EmscriptenFactory<DecoderModule>, decWasm);
const encoder = emscriptenCodec("mozjpeg_enc", encFactory as unknown as EmscriptenFactory<EncoderModule>, encWasm);

export interface JpegEncodeOptions {
  /** Progressive with optimised tables (MozJPEG default); baseline for strip encoding. */
  progressive?: boolean;
  /** Force 4:2:0 chroma so independently encoded strips share one layout. */
  fixedSubsampling?: boolean;
}

/** MozJPEG encode at quality 1..100 (progressive, trellis quantisation, optimised Huffman tables). */
export async function encodeJpeg(pixels: Pixels, quality: number, opts: JpegEncodeOptions = {}): Promise<Uint8Array> {
  const { module, messages, clear } = await encoder();
  clear();
  const progressive = opts.progressive ?? true;
  const options: MozJpegOptions = {
    ...defaultOptions,
    quality,
    progressive,
    optimize_coding: true,
    auto_subsample: !opts.fixedSubsampling,
  };
  try {
    const out = module.encode(pixels.data, pixels.width, pixels.height, options);
    return new Uint8Array(out);
  } catch (err) {
    throw new Error(`MozJPEG encode failed: ${describeFailure(err, messages)}`);
  }
}

/** MozJPEG decode to RGBA; orientation is left to the caller. Throws EngineError("corrupt") with libjpeg's reason. */
export async function decodeJpeg(bytes: Uint8Array): Promise<Pixels> {
  const { module, messages, clear } = await decoder();
  clear();
  let img: ReturnType<DecoderModule["decode"]>;
  try {
    img = module.decode(bytes, false);
  } catch (err) {
    throw new EngineError("corrupt", `The JPEG could not be decoded: ${describeFailure(err, messages)}.`);
  }
  if (!img) throw new EngineError("corrupt", `The JPEG could not be decoded: ${describeFailure(null, messages)}.`);
  return { data: img.data, width: img.width, height: img.height };
}
