// Where the whole-image WASM codecs stop and our bounded-memory paths take
// over. A Worker isolate has 128 MB for everything; the figures are measured
// heap costs of the jSquash builds (README, "Memory"): MozJPEG progressive
// encode ~17 bytes a pixel, oxipng ~27, squoosh resize ~8 (input + output).

/** JPEG inputs above this are decoded band by band. */
export const STREAM_PIXELS = 2_000_000;
/** JPEG outputs above this are encoded band by band (baseline, optimised tables). */
export const WHOLE_JPEG_ENCODE_PIXELS = 2_000_000;
/** PNG outputs up to this go through oxipng; larger ones through our streaming writer. */
export const OXIPNG_PIXELS = 500_000;
/** Resizes whose input + output fit this use squoosh's WASM resize; larger ones our streaming Lanczos3. */
export const WASM_RESIZE_PIXELS = 1_000_000;
/** Emscripten codec heaps above this are dropped after a call (they never shrink). */
export const HEAP_TRIM_BYTES = 32 * 1024 * 1024;
/**
 * Band size of the streaming paths. Half a megapixel: against a full one it
 * took the live peak of a 24 MP JPEG to grid AVIF from 90 to 77 MB and to PNG
 * from 57 to 51 MB, for about 8% more time.
 */
export const BAND_PIXELS = 1 << 19;
