import encFactory from "@jsquash/avif/codec/enc/avif_enc.js";
import encWasm from "../../../node_modules/@jsquash/avif/codec/enc/avif_enc.wasm";
import type { Pixels } from "../../../src/engines/images/types";

// libavif's encoder (jSquash's single-threaded libavif + aom build, high bit
// depth included) for the AVIF layouts our own writer never produces: 10 and
// 12 bits a sample, 4:4:4 through libavif's own RGB to YUV. Test fixtures
// only; instantiated here without registering a heap, so the Worker's
// runtime report (same isolate) does not count it.

interface Encoder {
  encode(data: Uint8Array, width: number, height: number, options: Record<string, number | boolean>): Uint8Array | null;
}

let encoder: Promise<Encoder> | undefined;

function load(): Promise<Encoder> {
  encoder ??= (encFactory as unknown as (o: object) => Promise<Encoder>)({
    noInitialRun: true,
    instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void) {
      const instance = new WebAssembly.Instance(encWasm, imports);
      done(instance);
      return instance.exports;
    },
    print: () => undefined,
    printErr: () => undefined,
  });
  return encoder;
}

/** `px` (8-bit RGBA) as one AVIF frame of `bitDepth` bits, chroma 4:2:0 (`subsample` 1) or 4:4:4 (3), libavif's fastest speed. */
export async function libavifOf(px: Pixels, bitDepth: 8 | 10 | 12, subsample: 1 | 3, quality = 80): Promise<Uint8Array> {
  let data: Uint8Array = new Uint8Array(px.data.buffer, px.data.byteOffset, px.data.length);
  if (bitDepth > 8) {
    // Samples widened the way an 8-bit source maps to more bits (v * max / 255).
    const max = (1 << bitDepth) - 1;
    const wide = new Uint16Array(px.data.length);
    for (let i = 0; i < wide.length; i++) wide[i] = Math.round((px.data[i] * max) / 255);
    data = new Uint8Array(wide.buffer);
  }
  const options = {
    quality,
    qualityAlpha: -1,
    denoiseLevel: 0,
    tileRowsLog2: 0,
    tileColsLog2: 0,
    speed: 10,
    subsample,
    chromaDeltaQ: false,
    sharpness: 0,
    enableSharpYUV: false,
    tune: 0,
    bitDepth,
  };
  const out = (await load()).encode(data, px.width, px.height, options);
  if (!out) throw new Error("libavif could not encode the fixture");
  return out.slice();
}
