import { rowBands, type BandSource, type PixelBand } from "../memory/bands";
import { gifCanvasRows, readGifFrame, type GifFrame } from "../codecs/gif";

/**
 * A GIF's first frame as bands of RGBA. LZW data is one stream (and an
 * interlaced frame stores its rows out of order), so the frame's palette
 * indices are decoded once, one byte a pixel; RGBA exists a band at a time.
 */
export class GifBandSource implements BandSource {
  private readonly frame: GifFrame;
  readonly width: number;
  readonly height: number;

  constructor(input: Uint8Array) {
    this.frame = readGifFrame(input);
    this.width = this.frame.width;
    this.height = this.frame.height;
  }

  get frames(): number {
    return this.frame.frames;
  }

  /** Transparent unless the frame covers the canvas and none of its pixels uses the transparent index. */
  get mayHaveAlpha(): boolean {
    const { rect, transparent, width, height } = this.frame;
    return transparent >= 0 || rect.fx > 0 || rect.fy > 0 || rect.fx + rect.fw < width || rect.fy + rect.fh < height;
  }

  bands(targetPixels = 1 << 19): AsyncIterable<PixelBand> {
    return rowBands(this.width, this.height, targetPixels, (y0, y1) => gifCanvasRows(this.frame, y0, y1));
  }
}
