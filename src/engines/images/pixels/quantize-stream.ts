import type { BandSource } from "../memory/bands";
import { PalettePngRowWriter } from "../codecs/png-writer";
import { memoryProbe } from "../memory/probe";
import { PaletteBuilder, Remapper, type BuiltPalette } from "./quantize";

// PNG compression for pictures too big to hold whole: the same quantiser as
// `quantize` (compress.ts), in two passes over a band source. Pass 1 builds the
// palette from every band (exact colours or histogram); pass 2 remaps each band
// with Floyd–Steinberg carried across band edges and writes the indices
// straight into the palette PNG's deflate stream. Besides the source's own
// bands, memory is the histogram (at most 2^19 buckets), the remap cache and
// error rows, one band of indices, and the compressed output: nothing grows
// with the image's height except the file being written.

/** Palette settings compressPng uses for the whole-image path; the streamed one must match it. */
const MAX_COLORS = 256;

async function buildPalette(source: BandSource, quality: number, bandPixels?: number): Promise<BuiltPalette> {
  const builder = new PaletteBuilder(source.width, source.height, MAX_COLORS);
  let y = 0;
  for await (const band of source.bands(bandPixels)) {
    if (band.y !== y) throw new Error(`quantizePngStreaming: band at row ${band.y}, expected ${y}`);
    builder.add(band.pixels);
    memoryProbe.sample();
    y += band.pixels.height;
  }
  return builder.build({ quality });
}

/**
 * Palette PNG (no ICC profile: the caller adds it with withPngIcc) of a band
 * source at `quality` 1..99, identical to
 * `writePalettePng(w, h, quantize(px, { maxColors: 256, quality, dither: true }))`
 * on the same pixels. The source is read twice. `bandPixels` is passed to
 * `source.bands()`.
 */
export async function quantizePngStreaming(source: BandSource, quality: number, bandPixels?: number): Promise<Uint8Array> {
  const { width, height } = source;
  const { colors, exact } = await buildPalette(source, quality, bandPixels);
  const remapper = new Remapper(width, colors, true, exact);
  const writer = new PalettePngRowWriter(width, height, colors);
  let y = 0;
  for await (const band of source.bands(bandPixels)) {
    if (band.y !== y) throw new Error(`quantizePngStreaming: band at row ${band.y}, expected ${y}`);
    writer.writeIndices(remapper.map(band.pixels), band.pixels.height);
    memoryProbe.sample();
    y += band.pixels.height;
  }
  if (y !== height) throw new Error(`quantizePngStreaming: source gave ${y} of ${height} rows`);
  return writer.finish();
}
