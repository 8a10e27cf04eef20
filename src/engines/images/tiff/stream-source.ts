import type * as utif from "utif2";
import { rowBands, type PixelBand } from "../memory/bands";
import { corrupt, finishRows, rawRowsToRgba, stripLayout, withByteOrder, type tiffFacts } from "../codecs/tiff";
import { TiffSource } from "./source";
import type { ByteStream } from "./byte-stream";
import { DeflateStream, deflateBody } from "./inflate";
import { TiffLzwStream } from "./lzw";
import { PackBitsStream } from "./packbits";

// Tall compressed strips (a whole picture in one LZW, Deflate or PackBits
// strip is common) read a band of rows at a time: each strip's data is
// decompressed incrementally, rows are un-predicted as they come (utif2's own
// step, so bytes match its whole-image decode), then turned into RGBA. Data
// that ends early leaves zero rows, as in the whole decode.

function streamOf(compression: number, strip: Uint8Array): ByteStream {
  if (compression === 5) return new TiffLzwStream(strip);
  if (compression === 32773) return new PackBitsStream(strip);
  return new DeflateStream(deflateBody(strip));
}

/** The picture's rows in order, strip after strip. */
class StripRows {
  private strip = -1;
  private rowsLeft = 0;
  private stream: ByteStream | null = null;

  constructor(
    private readonly file: Uint8Array,
    private readonly layout: NonNullable<ReturnType<typeof stripLayout>>,
    private readonly height: number,
  ) {}

  private open(k: number): void {
    const { offsets, counts, rps, compression } = this.layout;
    const off = offsets[k];
    if (!(off >= 0 && off < this.file.length)) throw corrupt("a strip lies outside the file");
    this.stream = streamOf(compression, this.file.subarray(off, Math.min(this.file.length, off + counts[k])));
    this.strip = k;
    this.rowsLeft = Math.min(rps, this.height - k * rps);
  }

  /** Fills `out` (zeroed) with the next `rows` rows. */
  read(out: Uint8Array, rows: number): void {
    const { rowBytes, offsets } = this.layout;
    let r = 0;
    while (r < rows) {
      if (this.rowsLeft === 0) {
        if (this.strip + 1 >= offsets.length) return; // fewer strips than rows: the rest stays zero
        this.open(this.strip + 1);
      }
      const n = Math.min(rows - r, this.rowsLeft);
      this.stream?.read(out.subarray(r * rowBytes, (r + n) * rowBytes));
      this.rowsLeft -= n;
      r += n;
    }
  }
}

export class TiffStreamSource extends TiffSource {
  private readonly file: Uint8Array;
  private readonly layout: NonNullable<ReturnType<typeof stripLayout>>;

  constructor(input: Uint8Array, ifd: utif.IFD, facts: ReturnType<typeof tiffFacts>) {
    super(withByteOrder(ifd, input), facts);
    this.file = input;
    const layout = stripLayout(ifd);
    if (!layout) throw new Error("TiffStreamSource: not a stripped TIFF");
    this.layout = layout;
  }

  bands(targetPixels = 1 << 19): AsyncIterable<PixelBand> {
    // A fresh decoder each pass (two-pass writers read the source twice).
    const rows = new StripRows(this.file, this.layout, this.height);
    const { rowBytes } = this.layout;
    return rowBands(this.width, this.height, targetPixels, (y0, y1) => {
      const n = y1 - y0;
      const raw = new Uint8Array(n * rowBytes);
      rows.read(raw, n);
      finishRows(this.ifd, raw, this.width, n);
      return rawRowsToRgba(this.ifd, raw, this.width, n);
    });
  }
}
