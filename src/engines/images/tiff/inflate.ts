import { Inflate } from "fflate";
import { corrupt } from "../codecs/tiff";
import { PieceQueue } from "../png/pieces";
import type { ByteStream } from "./byte-stream";

// A Deflate strip (compression 8 or 32946: a zlib stream) inflated
// incrementally by fflate. Like the whole-image decoder, the 2-byte zlib
// header and the 4-byte Adler-32 trailer are skipped (and not checked), and a
// stream that ends early leaves the rest of the strip zero. Input is pushed in
// slices sized from the ratio seen so far, so one push yields about
// OUT_TARGET bytes (see png/inflate.ts for the same scheme).

const OUT_TARGET = 256 * 1024;
const MIN_SLICE = 1024;
const MAX_SLICE = 16 * 1024;

export class DeflateStream extends PieceQueue implements ByteStream {
  private readonly inflater: Inflate;
  private at = 0;
  private out = 0;

  constructor(private readonly data: Uint8Array) {
    super();
    this.inflater = new Inflate((chunk) => {
      this.out += chunk.length;
      this.push(chunk);
    });
  }

  private feed(): boolean {
    if (this.at >= this.data.length) return false;
    const size = this.out === 0 ? 4096 : Math.max(MIN_SLICE, Math.min(MAX_SLICE, Math.floor((OUT_TARGET * this.at) / this.out)));
    const slice = this.data.subarray(this.at, this.at + size);
    this.at += slice.length;
    try {
      this.inflater.push(slice);
    } catch (err) {
      throw corrupt(`its Deflate data is damaged (${err instanceof Error ? err.message : "inflate error"})`);
    }
    return true;
  }

  read(target: Uint8Array): number {
    while (this.available < target.length && this.feed());
    const n = Math.min(target.length, this.available);
    this.take(target, 0, n);
    return n;
  }
}

/** The raw deflate data inside a strip's zlib stream (header and trailer dropped, as utif2 does). */
export function deflateBody(strip: Uint8Array): Uint8Array {
  return strip.subarray(2, Math.max(2, strip.length - 4));
}
