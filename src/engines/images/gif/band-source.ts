import { rowBands, type BandSource, type PixelBand } from "../memory/bands";
import { corrupt } from "./corrupt";
import { gifCanvasRows, paintCanvasRows, readGifFrame, type GifFrame } from "../codecs/gif";
import { GifLzwStream } from "./lzw-stream";

/**
 * A GIF's first frame as bands of RGBA. A frame stored in row order is
 * decoded as the bands need it (gif/lzw-stream.ts): only a band of palette
 * indices exists at a time. An interlaced frame stores its rows in four
 * passes, so its indices are decoded once, one byte a pixel (paths.ts
 * charges that plane).
 */
export class GifBandSource implements BandSource {
  private readonly frame: GifFrame;
  readonly width: number;
  readonly height: number;

  constructor(private readonly input: Uint8Array) {
    const counted = readGifFrame(input, true);
    this.frame = counted.rect.interlaced ? readGifFrame(input) : counted;
    this.width = this.frame.width;
    this.height = this.frame.height;
    if (!counted.rect.interlaced) this.checkData();
  }

  /** Refuses what the whole decoder refuses before a band is asked for: a cut chain, a bad code size, a frame with no data. */
  private checkData(): void {
    const { rect, dataAt } = this.frame;
    const probe = new GifLzwStream(this.input, dataAt, rect.fw * rect.fh);
    if (rect.fw * rect.fh > 0 && probe.read(new Uint8Array(1)) === 0) throw corrupt("the first image has no data");
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
    const f = this.frame;
    if (f.rect.interlaced) return rowBands(this.width, this.height, targetPixels, (y0, y1) => gifCanvasRows(f, y0, y1));
    // A fresh decoder each pass (two-pass writers read the source twice); frame rows are read in order as bands reach them.
    const { fy, fw, fh } = f.rect;
    const stream = new GifLzwStream(this.input, f.dataAt, fw * fh);
    return rowBands(this.width, this.height, targetPixels, (y0, y1) => {
      const r0 = Math.max(y0, fy) - fy;
      const r1 = Math.min(y1, fy + fh) - fy;
      const idx = new Uint8Array(Math.max(0, r1 - r0) * fw);
      if (r1 > r0) stream.read(idx);
      return paintCanvasRows(f, idx, (i) => (i - r0) * fw, y0, y1);
    });
  }
}
