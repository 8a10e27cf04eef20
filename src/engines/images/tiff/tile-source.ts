import type * as utif from "utif2";
import type { PixelBand } from "../memory/bands";
import { corrupt, decompressBlock, rawRowsToRgba, withByteOrder, type tiffFacts } from "../codecs/tiff";
import { bitsPerPixel, tileLayout, type TileLayout } from "./layout";
import { TiffSource } from "./source";

// A tiled TIFF a row of tiles at a time: each tile is decompressed by utif2's
// own per-tile step (the one its whole-image decoder loops over: every
// compression, JPEG tables and the predictor included), copied into one
// buffer of the row's decompressed bytes, and that row is turned into RGBA a
// band of rows at a time. Memory: the row of tiles as stored (at most
// MAX_TILE_ROW_BYTES, layout.ts), one tile, and one band of RGBA.

export class TiffTileSource extends TiffSource {
  private readonly file: Uint8Array;
  private readonly tiles: TileLayout;
  private readonly tileBytes: number;

  constructor(input: Uint8Array, ifd: utif.IFD, facts: ReturnType<typeof tiffFacts>) {
    super(withByteOrder(ifd, input), facts);
    this.file = input;
    const tiles = tileLayout(ifd);
    if (!tiles) throw new Error("TiffTileSource: not a tiled TIFF");
    this.tiles = tiles;
    this.tileBytes = Math.ceil((tiles.tw * tiles.th * bitsPerPixel(ifd)) / 8);
  }

  /** Decompresses row `ty` of tiles into `row` (rowBytes a picture row). */
  private readTileRow(ty: number, row: Uint8Array, tile: Uint8Array): void {
    const { tw, th, across, offsets, counts, tileRowBytes, rowBytes } = this.tiles;
    const rows = Math.min(th, this.height - ty * th);
    for (let tx = 0; tx < across; tx++) {
      const i = ty * across + tx;
      const off = offsets[i];
      const len = Math.min(counts[i], this.file.length - off);
      if (!(off >= 0 && off < this.file.length) || len <= 0) throw corrupt("a tile lies outside the file");
      // A copy of the tile's bytes: utif2's Deflate and PackBits read data.buffer at file offsets, so the data must start its buffer.
      decompressBlock(this.ifd, this.file.slice(off, off + len), 0, len, tile, tw, th);
      const x0 = Math.ceil((tx * tw * bitsPerPixel(this.ifd)) / 8);
      const n = Math.min(tileRowBytes, rowBytes - x0);
      for (let y = 0; y < rows; y++) row.set(tile.subarray(y * tileRowBytes, y * tileRowBytes + n), y * rowBytes + x0);
    }
  }

  async *bands(targetPixels = 1 << 19): AsyncIterable<PixelBand> {
    const { th, down, rowBytes } = this.tiles;
    const row = new Uint8Array(rowBytes * th);
    const tile = new Uint8Array(this.tileBytes);
    const step = Math.max(1, Math.floor(targetPixels / this.width));
    for (let ty = 0; ty < down; ty++) {
      this.readTileRow(ty, row, tile);
      const y0 = ty * th;
      const rows = Math.min(th, this.height - y0);
      for (let r = 0; r < rows; r += step) {
        const n = Math.min(step, rows - r);
        const data = rawRowsToRgba(this.ifd, row.subarray(r * rowBytes, (r + n) * rowBytes), this.width, n);
        yield { y: y0 + r, pixels: { data, width: this.width, height: n } };
      }
    }
  }
}
