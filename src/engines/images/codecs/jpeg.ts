import decodeJpegRaw, { init as initDecoder } from "@jsquash/jpeg/decode";
import encodeJpegRaw, { init as initEncoder } from "@jsquash/jpeg/encode";
import decWasm from "../../../../wasm/mozjpeg_dec.wasm";
import encWasm from "../../../../wasm/mozjpeg_enc.wasm";
import { once } from "./once";

/** RGBA pixels, the common currency of every codec here. */
export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

// jSquash's init accepts a precompiled module as its first argument, though
// its type declaration does not say so.
type InitWithModule = (module: WebAssembly.Module) => Promise<void>;

const encoderReady = once(() => (initEncoder as unknown as InitWithModule)(encWasm));
const decoderReady = once(() => (initDecoder as unknown as InitWithModule)(decWasm));

/** MozJPEG encode at quality 1..100 (progressive, optimised Huffman tables). */
export async function encodeJpeg(pixels: Pixels, quality: number): Promise<Uint8Array> {
  await encoderReady();
  const out = await encodeJpegRaw(pixels as unknown as Parameters<typeof encodeJpegRaw>[0], { quality });
  return new Uint8Array(out);
}

export async function decodeJpeg(bytes: Uint8Array): Promise<Pixels> {
  await decoderReady();
  const copy = bytes.slice().buffer;
  const img = await decodeJpegRaw(copy);
  return { data: img.data, width: img.width, height: img.height };
}
