import type * as utif from "utif2";
import { rowBands, type PixelBand } from "../memory/bands";
import { TiffSource } from "./source";
import { fileBuffer, firstImage, ifdToRgba, stripLayout, tiffFacts, tiffPages } from "../codecs/tiff";
import { tiffReading, type TiffReading } from "./layout";
import { TiffStreamSource } from "./stream-source";
import { TiffTileSource } from "./tile-source";

// A TIFF read a band at a time (how, layout.ts decides). A stripped file's
// small strips are independent (each is compressed on its own, JPEG tables
// and predictor included), so a band is the image's directory narrowed to a
// run of strips and given to the same decoder as the whole picture. An
// uncompressed single-strip file is cut into rows directly. Tall compressed
// strips are streamed (stream-source.ts), tiles read a row at a time
// (tile-source.ts).

/** The road a TIFF takes, from its directory alone, before any pixel is decoded: undefined for the whole road. */
export function tiffRoad(input: Uint8Array): "tiff-bands" | "tiff-tiles" | undefined {
  let reading: TiffReading | undefined;
  try {
    reading = tiffReading(firstImage(tiffPages(input)));
  } catch {
    return undefined; // the whole road reports the damage
  }
  if (!reading) return undefined;
  return reading === "tiles" ? "tiff-tiles" : "tiff-bands";
}

export { TiffSource };

/** The first image of `input` as bands, on the reading layout.ts chose for it. */
export function openTiffSource(input: Uint8Array): TiffSource {
  const ifds = tiffPages(input);
  const ifd = firstImage(ifds);
  const reading = tiffReading(ifd);
  if (!reading) throw new Error("openTiffSource: this TIFF cannot be read in bands (paths.ts should not have chosen it)");
  const facts = tiffFacts(ifds, ifd);
  if (reading === "tiles") return new TiffTileSource(input, ifd, facts);
  if (reading === "stream") return new TiffStreamSource(input, ifd, facts);
  return new TiffBandSource(input, ifd, facts);
}

type Layout = NonNullable<ReturnType<typeof stripLayout>>;
type Facts = ReturnType<typeof tiffFacts>;

/** Small strips, a run of them a band, decoded by utif2 like the whole picture. */
export class TiffBandSource extends TiffSource {
  private readonly buffer: ArrayBuffer;
  private readonly layout: Layout;

  constructor(input: Uint8Array, ifd: utif.IFD, facts: Facts) {
    super(ifd, facts);
    this.buffer = fileBuffer(input);
    const layout = stripLayout(ifd);
    if (!layout) throw new Error("TiffBandSource: not a stripped TIFF");
    this.layout = layout;
  }

  /** The directory narrowed to rows y0..y1 (on strip boundaries, or any rows of an uncompressed single strip). */
  private narrowed(y0: number, y1: number): utif.IFD {
    const { rps, offsets, counts, rowBytes } = this.layout;
    const single = offsets.length === 1;
    const first = single ? 0 : y0 / rps;
    const last = single ? 1 : Math.ceil(y1 / rps);
    // this.ifd itself is never decoded, so the copy carries no `data` (decodeImage skips a directory that has it).
    return {
      ...this.ifd,
      t257: [y1 - y0],
      t278: [single ? y1 - y0 : rps],
      t273: single ? [offsets[0] + y0 * rowBytes] : offsets.slice(first, last),
      t279: single ? [(y1 - y0) * rowBytes] : counts.slice(first, last),
    };
  }

  bands(targetPixels = 1 << 19): AsyncIterable<PixelBand> {
    const { rps, offsets } = this.layout;
    // Whole strips a band (at least one), except in an uncompressed single strip.
    const step = offsets.length === 1 ? 1 : rps;
    const rows = Math.max(1, Math.floor(targetPixels / this.width / step)) * step;
    return rowBands(this.width, this.height, rows * this.width, (y0, y1) => ifdToRgba(this.buffer, this.narrowed(y0, y1)).data);
  }
}
