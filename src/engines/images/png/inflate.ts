import { Unzlib } from "fflate";
import { corrupt } from "./chunks";
import { PieceQueue } from "./pieces";

// The zlib stream spread over a PNG's IDAT chunks, inflated incrementally with
// fflate's streaming Unzlib: input is pushed in slices sized so each push
// yields about OUT_TARGET bytes (the slice follows the compression ratio seen
// so far), so memory is the compressed file plus a few hundred KB of
// inflated data, never the whole raw image. One push of MAX_SLICE bytes can
// still inflate to ~1000x that if the data turns from noisy to flat inside
// it: the worst case is ~16 MB, transient.
//
// Why not the platform's DecompressionStream (zlib in C++, ~1.7x faster than
// fflate)? In workerd it does not push back: every write is inflated at once
// into an internal buffer, so a pipe fills it with the whole raw image; and
// gating writes on "the output has been read" needs a timer turn per read
// (~1 ms in workerd), far slower. It also cannot tell where the deflate data
// ends, which the accept/refuse rules below need.

const OUT_TARGET = 256 * 1024;
const MIN_SLICE = 1024;
const MAX_SLICE = 16 * 1024;
const FIRST_SLICE = 4096;

/** Next input slice size for a stream that has turned `totalIn` bytes into `totalOut`. */
function sliceSize(totalIn: number, totalOut: number): number {
  if (totalOut === 0) return FIRST_SLICE;
  return Math.max(MIN_SLICE, Math.min(MAX_SLICE, Math.floor((OUT_TARGET * totalIn) / totalOut)));
}

/** fflate's streaming state (internal fields of fflate 0.8's Inflate). */
interface UnzlibInternals {
  /** Pending input not consumed yet. */
  p: Uint8Array;
  /** f: final block seen; l: the current block's literal map (unset between blocks); p: bit position in `p`. */
  s: { f?: number; l?: unknown; p?: number };
}

export class FflateInflater extends PieceQueue {
  private readonly inflater: Unzlib;
  private chunk = 0;
  private chunkPos = 0;
  private totalIn = 0;
  private totalOut = 0;
  private discard = false;

  constructor(private readonly idat: Uint8Array[]) {
    super();
    this.inflater = new Unzlib((data) => {
      this.totalOut += data.length;
      if (!this.discard) this.push(data);
    });
  }

  /** Pushes the next slice of compressed data; false once there is none left. */
  private feed(): boolean {
    while (this.chunk < this.idat.length && this.chunkPos >= this.idat[this.chunk].length) {
      this.chunk++;
      this.chunkPos = 0;
    }
    if (this.chunk >= this.idat.length) return false;
    const data = this.idat[this.chunk];
    const slice = data.subarray(this.chunkPos, this.chunkPos + sliceSize(this.totalIn, this.totalOut));
    this.chunkPos += slice.length;
    this.totalIn += slice.length;
    try {
      this.inflater.push(slice);
    } catch (err) {
      throw corrupt(`its compressed image data is damaged (${err instanceof Error ? err.message : "inflate error"})`);
    }
    return true;
  }

  /** Makes at least n bytes available. */
  fill(n: number): void {
    while (this.available < n) if (!this.feed()) throw corrupt("its image data ends before the last row (truncated)");
  }

  /**
   * After the last row: like decodePng, insists the zlib stream ends properly
   * (final deflate block and the 4-byte Adler-32 trailer present, its value
   * not checked); extra inflated data is ignored.
   */
  finish(): void {
    const state = this.inflater as unknown as UnzlibInternals;
    this.clear();
    this.discard = true;
    while (!(state.s.f && !state.s.l)) if (!this.feed()) throw corrupt("its compressed image data is truncated");
    // The rest of the input is only trailer or junk: count the whole bytes after the last block.
    while (this.feed());
    const trailer = state.p.length - (((state.s.p ?? 0) + 7) >> 3);
    if (trailer < 4) throw corrupt("its compressed image data is truncated (no zlib checksum)");
  }
}
