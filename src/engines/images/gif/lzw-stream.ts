import { corrupt } from "./corrupt";

// A GIF frame's LZW data decoded incrementally, straight from the file's
// sub-blocks, with its table, bit buffer and the string being emitted kept
// between calls, so only the rows asked for exist at a time. The whole-frame
// read (codecs/gif.ts) is this with one call, so both give the same indices
// and refuse the same files: it stops once the last data byte has been read
// (a code still in the bit buffer then is not decoded), at the end code, or
// after `limit` indices.

export class GifLzwStream {
  private readonly prefix = new Int16Array(4096);
  private readonly suffix = new Uint8Array(4096);
  private readonly first = new Uint8Array(4096);
  private readonly stack = new Uint8Array(4097);
  private sp = 0;
  private readonly minSize: number;
  private readonly clear: number;
  private size: number;
  private next: number;
  private prev = -1;
  private bits = 0;
  private acc = 0;
  /** Data bytes read, of `total` in the sub-blocks; `pos` is the file offset, `blockLeft` what remains of the current sub-block. */
  private read_ = 0;
  private readonly total: number;
  private pos: number;
  private blockLeft = 0;
  private produced = 0;
  private ended = false;

  /** `dataAt`: the frame's minimum code size byte; `limit`: the frame's pixel count. */
  constructor(
    private readonly b: Uint8Array,
    dataAt: number,
    private readonly limit: number,
  ) {
    this.total = dataBytes(b, dataAt + 1);
    this.pos = dataAt + 1;
    this.minSize = b[dataAt];
    if (this.minSize < 2 || this.minSize > 8) throw corrupt("bad LZW code size");
    this.clear = 1 << this.minSize;
    for (let i = 0; i < this.clear; i++) {
      this.prefix[i] = -1;
      this.suffix[i] = i;
      this.first[i] = i;
    }
    this.size = this.minSize + 1;
    this.next = this.clear + 2;
  }

  private byte(): number {
    if (this.blockLeft === 0) this.blockLeft = this.b[this.pos++];
    this.blockLeft--;
    this.read_++;
    return this.b[this.pos++];
  }

  /** Fills `out` from its start with the next indices; fewer only where the data ends. */
  read(out: Uint8Array): number {
    let n = 0;
    while (n < out.length) {
      if (this.sp > 0) {
        if (this.produced >= this.limit) break;
        out[n++] = this.stack[--this.sp];
        this.produced++;
        continue;
      }
      if (this.ended || this.read_ >= this.total || this.produced >= this.limit) {
        this.ended = true;
        break;
      }
      this.decodeOne();
    }
    return n;
  }

  /** Decodes one code onto the stack (reversed), as one turn of the whole decoder's loop. */
  private decodeOne(): void {
    while (this.bits < this.size && this.read_ < this.total) {
      this.acc |= this.byte() << this.bits;
      this.bits += 8;
    }
    if (this.bits < this.size) {
      this.ended = true;
      return;
    }
    const code = this.acc & ((1 << this.size) - 1);
    this.acc >>>= this.size;
    this.bits -= this.size;
    const clear = this.clear;
    if (code === clear) {
      this.size = this.minSize + 1;
      this.next = clear + 2;
      this.prev = -1;
      return;
    }
    if (code === clear + 1) {
      this.ended = true;
      return;
    }
    const prev = this.prev;
    if (prev === -1) {
      if (code >= clear) throw corrupt("bad LZW stream");
      this.stack[this.sp++] = code;
      this.prev = code;
      return;
    }
    const next = this.next;
    if (code > next || (code === next && next >= 4096)) throw corrupt("bad LZW stream");
    let c = code;
    if (code === next) {
      this.stack[this.sp++] = this.first[prev];
      c = prev;
    }
    while (c >= clear) {
      this.stack[this.sp++] = this.suffix[c];
      c = this.prefix[c];
    }
    this.stack[this.sp++] = c;
    if (next < 4096) {
      this.prefix[next] = prev;
      this.suffix[next] = c;
      this.first[next] = this.first[prev];
      this.next++;
      if (this.next === 1 << this.size && this.size < 12) this.size++;
    }
    this.prev = code;
  }
}

/** Bytes of data in the sub-blocks starting at `at`, refusing a chain cut short like the whole decoder. */
function dataBytes(b: Uint8Array, at: number): number {
  let n = 0;
  while (true) {
    if (at >= b.length) throw corrupt("the data ends inside an image (truncated file)");
    const size = b[at++];
    if (size === 0) return n;
    if (at + size > b.length) throw corrupt("the data ends inside an image (truncated file)");
    n += size;
    at += size;
  }
}
