import type * as utif from "utif2";
import type { BandSource, PixelBand } from "../memory/bands";
import { tag, type tiffFacts } from "../codecs/tiff";

/**
 * What every TIFF band source (strips, a streamed tall strip, tiles) tells
 * the output side before its first row, read from the first image's
 * directory; subclasses only differ in how they get the rows.
 */
export abstract class TiffSource implements BandSource {
  readonly width: number;
  readonly height: number;
  readonly orientation: number;
  readonly icc?: Uint8Array;
  readonly pages: number;

  constructor(
    protected readonly ifd: utif.IFD,
    facts: ReturnType<typeof tiffFacts>,
  ) {
    this.width = tag(ifd, 256)?.[0] ?? 0;
    this.height = tag(ifd, 257)?.[0] ?? 0;
    this.orientation = facts.orientation;
    this.icc = facts.icc;
    this.pages = facts.pages;
  }

  /** An alpha sample (extra samples beside RGB or grey) may be translucent. */
  get mayHaveAlpha(): boolean {
    return (tag(this.ifd, 338)?.length ?? 0) > 0;
  }

  abstract bands(targetPixels?: number): AsyncIterable<PixelBand>;
}
