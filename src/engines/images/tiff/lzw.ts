import { corrupt } from "../codecs/tiff";
import type { ByteStream } from "./byte-stream";

// TIFF LZW (compression 5), decoded incrementally: codes are MSB-first, 9 to
// 12 bits, 256 clears the table, 257 ends the data, and the code width grows
// one code early (at 511, 1023, 2047 entries) as libtiff writes it. The table
// and the string being emitted are kept between calls, so a strip can be read
// a band of rows at a time.

const CLEAR = 256;
const END = 257;
const FIRST_FREE = 258;
const MAX_CODES = 4096;

export class TiffLzwStream implements ByteStream {
  private at = 0;
  private acc = 0;
  private bits = 0;
  private width = 9;
  private next = FIRST_FREE;
  private prev = -1;
  private done = false;
  private readonly prefix = new Int16Array(MAX_CODES);
  private readonly suffix = new Uint8Array(MAX_CODES);
  private readonly length = new Uint16Array(MAX_CODES);
  /** The string of the last code, emitted from `pendingAt` up to `pendingEnd`. */
  private readonly pending = new Uint8Array(MAX_CODES + 1);
  private pendingAt = 0;
  private pendingEnd = 0;

  constructor(private readonly data: Uint8Array) {
    for (let i = 0; i < 256; i++) {
      this.prefix[i] = -1;
      this.suffix[i] = i;
      this.length[i] = 1;
    }
  }

  /** The next code, or -1 when the data runs out. */
  private code(): number {
    while (this.bits < this.width) {
      if (this.at >= this.data.length) return -1;
      this.acc = ((this.acc << 8) | this.data[this.at++]) & 0xffffff;
      this.bits += 8;
    }
    this.bits -= this.width;
    return (this.acc >>> this.bits) & ((1 << this.width) - 1);
  }

  /** Writes code's string into `pending`, optionally followed by one more byte. */
  private spell(code: number, extra: number): void {
    const n = this.length[code];
    let c = code;
    for (let i = n - 1; i >= 0; i--) {
      this.pending[i] = this.suffix[c];
      c = this.prefix[c];
    }
    this.pendingAt = 0;
    this.pendingEnd = n;
    if (extra >= 0) this.pending[this.pendingEnd++] = extra;
  }

  read(out: Uint8Array): number {
    let o = 0;
    while (o < out.length) {
      if (this.pendingAt < this.pendingEnd) {
        const k = Math.min(out.length - o, this.pendingEnd - this.pendingAt);
        out.set(this.pending.subarray(this.pendingAt, this.pendingAt + k), o);
        this.pendingAt += k;
        o += k;
        continue;
      }
      if (this.done) break;
      const code = this.code();
      if (code < 0 || code === END) {
        this.done = true;
        break;
      }
      if (code === CLEAR) {
        this.width = 9;
        this.next = FIRST_FREE;
        this.prev = -1;
        continue;
      }
      const prev = this.prev;
      if (prev < 0) {
        if (code > 255) throw corrupt("its LZW data is damaged");
        this.spell(code, -1);
      } else {
        if (code > this.next || (code === this.next && this.next >= MAX_CODES)) throw corrupt("its LZW data is damaged");
        // A code not in the table yet (KwKwK) is the previous string plus its own first byte.
        if (code === this.next) this.spell(prev, this.firstByte(prev));
        else this.spell(code, -1);
        if (this.next < MAX_CODES) {
          this.prefix[this.next] = prev;
          this.suffix[this.next] = this.pending[0];
          this.length[this.next] = this.length[prev] + 1;
          this.next++;
          if (this.next >= (1 << this.width) - 1 && this.width < 12) this.width++;
        }
      }
      this.prev = code;
    }
    return o;
  }

  private firstByte(code: number): number {
    let c = code;
    while (this.prefix[c] >= 0) c = this.prefix[c];
    return c;
  }
}
