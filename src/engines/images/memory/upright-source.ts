import { rowPlacement, swapsAxes } from "../pixels/orientation";
import { StreamingResizer } from "../pixels/resample";
import { BAND_PIXELS } from "./budget";
import type { BandSource, PixelBand } from "./bands";
import { memoryProbe } from "./probe";
import type { Pixels } from "../types";

// Upright rows from a source stored turned (EXIF orientation 2..8), for
// writers that must write rows top to bottom as shown (PNG, TIFF) and cannot
// carry the orientation. A turned picture's upright row is a stored column
// (or a stored row from the other end), so each pass reads the whole source
// again and keeps only the upright rows of one band: memory is one band of
// UPRIGHT_PASS_PIXELS, time is one decode a pass (a source that holds its
// decoded picture, readFor, is read again without decoding).

/** Upright pixels gathered per pass (16 MB of RGBA): a 24 MP photo takes 6 passes. */
export const UPRIGHT_PASS_PIXELS = 4_000_000;

export class UprightSource implements BandSource {
  readonly width: number;
  readonly height: number;

  /**
   * `open` gives a fresh source each pass; its rows are resampled to
   * storedWidth x storedHeight (the target in stored orientation) on the way.
   */
  constructor(
    private readonly open: () => Promise<BandSource>,
    private readonly storedWidth: number,
    private readonly storedHeight: number,
    private readonly orientation: number,
  ) {
    const swap = swapsAxes(orientation);
    this.width = swap ? storedHeight : storedWidth;
    this.height = swap ? storedWidth : storedHeight;
  }

  async *bands(): AsyncIterable<PixelBand> {
    const { width, height, storedWidth: sw, storedHeight: sh, orientation } = this;
    const rowsPerPass = Math.max(1, Math.floor(UPRIGHT_PASS_PIXELS / width));
    let again: BandSource | undefined;
    for (let u0 = 0; u0 < height; u0 += rowsPerPass) {
      const u1 = Math.min(height, u0 + rowsPerPass);
      const data = new Uint8Array((u1 - u0) * width * 4);
      const out = new Uint32Array(data.buffer);
      const first = u0 * width;
      const end = u1 * width;
      const source = again ?? (await this.open());
      if (!again && source.readFor) {
        source.readFor(Math.ceil(height / rowsPerPass));
        again = source;
      }
      const resizer = source.width === sw && source.height === sh ? null : new StreamingResizer(source.width, source.height, sw, sh);
      let y = 0;
      const place = (rows: Pixels) => {
        const src = new Uint32Array(rows.data.buffer, rows.data.byteOffset, rows.height * sw);
        for (let r = 0; r < rows.height; r++, y++) {
          const { base, step } = rowPlacement(orientation, sw, sh, y);
          // A stored row lands on one upright row (step +-1) or down one upright column.
          if (step === 1 || step === -1) {
            if (base < first || base >= end) continue;
          }
          for (let x = 0, i = base; x < sw; x++, i += step) if (i >= first && i < end) out[i - first] = src[r * sw + x];
        }
      };
      for await (const band of source.bands(BAND_PIXELS)) {
        if (!resizer) place(band.pixels);
        else for (const rows of resizer.push(band.pixels)) place(rows);
        memoryProbe.sample();
      }
      yield { y: u0, pixels: { data, width, height: u1 - u0 } };
    }
  }
}
