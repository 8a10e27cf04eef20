import { type InflateBand, inflateMessage } from "../codecs/inflate-band";
import { corrupt } from "./chunks";
import { PieceQueue } from "./pieces";

// The zlib stream spread over a PNG's IDAT chunks, inflated incrementally by
// zlib in WASM (codecs/inflate-band.ts; about twice as fast as fflate, and no
// garbage): compressed data goes into the instance's input buffer IN_BYTES
// at a time, and each step writes at most OUT_BYTES, so memory is the
// compressed file plus a few hundred KB whatever the compression ratio.
// The 2-byte zlib header is checked here and the stream inflated as raw
// Deflate, so the Adler-32 trailer is only required to be there, not to be
// right, as decodePng (the png crate) does for whole images.

const IN_BYTES = 64 * 1024;
const OUT_BYTES = 256 * 1024;

export class ZlibInflater extends PieceQueue {
  private chunk = 0;
  private chunkPos = 0;
  private readonly input: number;
  private readonly output: number;
  private discard = false;

  /** `m`: a fresh instance of the inflater, the caller's to close. */
  constructor(
    private readonly m: InflateBand,
    private readonly idat: Uint8Array[],
  ) {
    super();
    if (!m._inf_open(IN_BYTES, OUT_BYTES)) throw new Error(`inflate failed: ${inflateMessage(m)}`);
    this.input = m._inf_input();
    this.output = m._inf_output();
    this.checkHeader();
  }

  /** The zlib header (CMF, FLG), possibly split over IDAT chunks: Deflate, a window of at most 32 KiB, no preset dictionary. */
  private checkHeader(): void {
    const header = new Uint8Array(2);
    if (this.copyInput(header) < 2) throw corrupt("its compressed image data is truncated");
    const [cmf, flg] = header;
    if ((cmf & 15) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0) throw corrupt("its compressed image data is damaged (invalid zlib header)");
    if (flg & 32) throw corrupt("its compressed image data is damaged (a preset dictionary)");
  }

  /** Copies the next compressed bytes into `dst`; answers how many there were. */
  private copyInput(dst: Uint8Array): number {
    let n = 0;
    while (n < dst.length && this.chunk < this.idat.length) {
      const data = this.idat[this.chunk];
      const k = Math.min(dst.length - n, data.length - this.chunkPos);
      dst.set(data.subarray(this.chunkPos, this.chunkPos + k), n);
      n += k;
      this.chunkPos += k;
      if (this.chunkPos >= data.length) {
        this.chunk++;
        this.chunkPos = 0;
      }
    }
    return n;
  }

  /** Compressed bytes not fed to the inflater yet. */
  private unfed(): number {
    let n = 0;
    for (let i = this.chunk; i < this.idat.length; i++) n += this.idat[i].length - (i === this.chunk ? this.chunkPos : 0);
    return n;
  }

  /** One step of inflating, feeding input first when it is used up; false when nothing more can come. */
  private step(): boolean {
    const { m } = this;
    if (m._inf_ended()) return false;
    let fed = -1;
    if (m._inf_left() === 0) {
      // Read the heap after any call that may have grown it: a grown heap is a new buffer.
      fed = this.copyInput(m.HEAPU8.subarray(this.input, this.input + IN_BYTES));
      if (fed > 0) m._inf_feed(fed);
    }
    // Even with no input left, zlib may hold output a full buffer cut short.
    const n = m._inf_step();
    if (n < 0) throw corrupt(`its compressed image data is damaged (${inflateMessage(m)})`);
    if (n > 0 && !this.discard) this.push(m.HEAPU8.slice(this.output, this.output + n));
    return n > 0 || fed !== 0;
  }

  /** Makes at least n bytes available. */
  fill(n: number): void {
    while (this.available < n) if (!this.step()) throw corrupt("its image data ends before the last row (truncated)");
  }

  /**
   * After the last row: like decodePng, insists the zlib stream ends properly
   * (final Deflate block and the 4-byte Adler-32 trailer present, its value
   * not checked); extra inflated data is ignored.
   */
  finish(): void {
    this.clear();
    this.discard = true;
    while (!this.m._inf_ended()) if (!this.step()) throw corrupt("its compressed image data is truncated");
    if (this.m._inf_left() + this.unfed() < 4) throw corrupt("its compressed image data is truncated (no zlib checksum)");
  }
}
