import { rowBands, type BandSource, type PixelBand } from "../memory/bands";
import { BmpRows } from "../codecs/bmp";

/** A BMP read a band of rows at a time: rows are decoded from the file as they are asked for. */
export class BmpBandSource implements BandSource {
  private readonly reader: BmpRows;
  readonly width: number;
  readonly height: number;

  constructor(input: Uint8Array) {
    this.reader = new BmpRows(input);
    this.width = this.reader.width;
    this.height = this.reader.height;
  }

  get mayHaveAlpha(): boolean {
    return this.reader.mayHaveAlpha;
  }

  bands(targetPixels = 1 << 19): AsyncIterable<PixelBand> {
    return rowBands(this.width, this.height, targetPixels, (y0, y1) => this.reader.rows(y0, y1));
  }
}
