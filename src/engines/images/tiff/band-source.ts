import type * as utif from "utif2";
import { rowBands, type BandSource, type PixelBand } from "../memory/bands";
import { fileBuffer, firstImage, ifdToRgba, stripLayout, tag, tiffFacts, tiffPages } from "../codecs/tiff";

// A TIFF read a band at a time. A stripped file's strips are independent
// (each is compressed on its own, JPEG tables and predictor included), so a
// band is the image's directory narrowed to a run of strips and given to the
// same decoder as the whole picture. An uncompressed single-strip file is cut
// into rows directly. Tiled, plane-separated and big single-strip compressed
// files have no such cut and are decoded whole (paths.ts).

/** A strip bigger than this is too coarse to read in bands. */
const MAX_STRIP_PIXELS = 1 << 21;

type Layout = NonNullable<ReturnType<typeof stripLayout>>;

/** Whether `layout` (of an image `width` wide) can be read in bands. */
function bandable(layout: Layout | undefined, width: number): layout is Layout {
  if (!layout) return false;
  return layout.compression === 1 || layout.rps * width <= MAX_STRIP_PIXELS;
}

/** Decided from the directory alone, before any pixel is decoded. */
export function tiffReadsInBands(input: Uint8Array): boolean {
  try {
    const ifd = firstImage(tiffPages(input));
    return bandable(stripLayout(ifd), tag(ifd, 256)?.[0] ?? 0);
  } catch {
    return false; // the whole road reports the damage
  }
}

export class TiffBandSource implements BandSource {
  private readonly buffer: ArrayBuffer;
  private readonly ifd: utif.IFD;
  private readonly layout: Layout;
  readonly width: number;
  readonly height: number;
  readonly orientation: number;
  readonly icc?: Uint8Array;
  readonly pages: number;

  constructor(input: Uint8Array) {
    const ifds = tiffPages(input);
    this.ifd = firstImage(ifds);
    this.buffer = fileBuffer(input);
    this.width = tag(this.ifd, 256)?.[0] ?? 0;
    this.height = tag(this.ifd, 257)?.[0] ?? 0;
    const layout = stripLayout(this.ifd);
    if (!bandable(layout, this.width)) throw new Error("TiffBandSource: this TIFF cannot be read in bands (paths.ts should not have chosen it)");
    this.layout = layout;
    const facts = tiffFacts(ifds, this.ifd);
    this.orientation = facts.orientation;
    this.icc = facts.icc;
    this.pages = facts.pages;
  }

  /** An alpha sample (extra samples beside RGB or grey) may be translucent. */
  get mayHaveAlpha(): boolean {
    return (tag(this.ifd, 338)?.length ?? 0) > 0;
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
