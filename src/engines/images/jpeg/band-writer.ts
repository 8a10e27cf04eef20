import type { RowSink } from "../memory/bands";
import { concat } from "../util/bytes";
import { encodeJpeg } from "../codecs/jpeg";
import { withJpegMetadata } from "../formats/metadata";
import { memoryProbe } from "../memory/probe";
import type { Pixels } from "../types";
import { forEachBlockInMcuOrder, type CoefBand } from "./band";
import { countBlock } from "./blocks";
import type { FrameGeometry } from "./frame";
import { optimalSpec } from "./huffman";
import { parseJpeg } from "./markers";
import { SequentialReader } from "./sequential";
import { EOI_BYTES, jpegHeader, ScanEncoder, type HuffmanSet } from "./write";

// MozJPEG for images too big to encode whole in a Worker: each band of rows
// (a multiple of the 16-row MCU) is encoded on its own with the same settings,
// so quantisation tables and block grid agree; the bands' coefficients are
// then re-coded as one scan with Huffman tables optimised over the whole
// image. Only compressed bands are kept between the two passes.

export class JpegBandWriter implements RowSink {
  readonly bandRows: number;
  private pending: Uint8Array;
  private filled = 0;
  private readonly encoded: Uint8Array[] = [];
  private g: FrameGeometry | null = null;
  private dqt: Uint8Array[] = [];
  private readonly dcFreq = [new Float64Array(257), new Float64Array(257)];
  private readonly acFreq = [new Float64Array(257), new Float64Array(257)];
  private readonly preds = [0, 0, 0];
  private rowsDone = 0;

  constructor(
    readonly width: number,
    readonly height: number,
    private readonly quality: number,
    private readonly meta: { icc?: Uint8Array; orientation?: number } = {},
    bandPixels = 1 << 20,
  ) {
    this.bandRows = Math.max(16, Math.floor(bandPixels / width / 16) * 16);
    this.pending = new Uint8Array(this.bandRows * width * 4);
  }

  /** Accepts rows in order, any number at a time. */
  async write(rows: Pixels): Promise<void> {
    const rowBytes = this.width * 4;
    let from = 0;
    while (from < rows.height) {
      const n = Math.min(rows.height - from, this.bandRows - this.filled);
      this.pending.set(rows.data.subarray(from * rowBytes, (from + n) * rowBytes), this.filled * rowBytes);
      this.filled += n;
      from += n;
      if (this.filled === this.bandRows) await this.flushBand();
    }
  }

  private async flushBand(): Promise<void> {
    if (!this.filled) return;
    const band: Pixels = { data: this.pending.subarray(0, this.filled * this.width * 4), width: this.width, height: this.filled };
    const jpeg = await encodeJpeg(band, this.quality, { progressive: false, fixedSubsampling: true });
    const s = parseJpeg(jpeg);
    const reader = new SequentialReader(jpeg, s);
    this.g ??= { ...reader.g, height: this.height, mcusY: Math.ceil(this.height / reader.g.mcuH), components: reader.g.components };
    if (!this.dqt.length) this.dqt = reader.dqt;
    this.count(reader.next(reader.g.mcusY));
    this.encoded.push(jpeg);
    memoryProbe.sample();
    this.rowsDone += this.filled;
    this.filled = 0;
  }

  private count(band: CoefBand): void {
    const g = this.g as FrameGeometry;
    forEachBlockInMcuOrder(g, band, (ci, at) => {
      const t = ci === 0 ? 0 : 1;
      const plane = band.planes[ci];
      countBlock(this.dcFreq[t], this.acFreq[t], plane, at, this.preds[ci]);
      this.preds[ci] = plane[at];
    });
  }

  async finish(): Promise<Uint8Array> {
    await this.flushBand();
    const g = this.g;
    if (!g || this.rowsDone !== this.height) throw new Error(`band writer got ${this.rowsDone} of ${this.height} rows`);
    const huff: HuffmanSet = {
      dc: [optimalSpec(this.dcFreq[0]), optimalSpec(this.dcFreq[1])],
      ac: [optimalSpec(this.acFreq[0]), optimalSpec(this.acFreq[1])],
    };
    const jfif = new Uint8Array([0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    const enc = new ScanEncoder(g, huff);
    const parts: Uint8Array[] = [jpegHeader(g, this.dqt, this.height, huff, [jfif])];
    for (let i = 0; i < this.encoded.length; i++) {
      const jpeg = this.encoded[i];
      const reader = new SequentialReader(jpeg, parseJpeg(jpeg));
      enc.encode(reader.next(reader.g.mcusY));
      memoryProbe.sample();
      this.encoded[i] = new Uint8Array(0);
    }
    parts.push(enc.finish(), EOI_BYTES);
    return withJpegMetadata(concat(parts), this.meta);
  }
}
