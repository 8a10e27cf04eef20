import type { DecodeTable, EncodeTable } from "./huffman";

// Bit-level reading and writing of JPEG entropy-coded data, with 0xFF byte
// stuffing and restart markers.

/** Where a BitReader stands: enough to resume reading there (BitReader.resume) and to count the bits between two marks. */
export interface ScanMark {
  pos: number;
  acc: number;
  bits: number;
  marker: number;
  /** Bits taken from the stream (stuffing removed) up to this mark. */
  consumed: number;
}

export class BitReader {
  private acc = 0;
  private bits = 0;
  /** Bits fed into the accumulator so far, stuffing removed (marks count in these). */
  private fed = 0;
  /** Set once a marker (other than stuffing) is reached; the reader then feeds zeros. */
  marker = -1;

  /** A reader over `b` that goes on from `mark`. */
  static resume(b: Uint8Array, mark: ScanMark): BitReader {
    const r = new BitReader(b, mark.pos);
    r.acc = mark.acc;
    r.bits = mark.bits;
    r.marker = mark.marker;
    r.fed = mark.consumed + mark.bits;
    return r;
  }

  constructor(
    private readonly b: Uint8Array,
    public pos: number,
  ) {}

  private fill(): void {
    while (this.bits <= 24) {
      let byte = 0;
      if (this.marker < 0 && this.pos < this.b.length) {
        byte = this.b[this.pos];
        if (byte === 0xff) {
          const next = this.b[this.pos + 1];
          if (next === 0) this.pos += 2;
          else {
            this.marker = next;
            byte = 0;
          }
        } else this.pos++;
      } else if (this.pos >= this.b.length) {
        this.marker = this.marker < 0 ? 0x100 : this.marker; // ran out of data
      }
      this.acc = (this.acc << 8) | byte;
      this.bits += 8;
      this.fed += 8;
    }
  }

  mark(): ScanMark {
    return { pos: this.pos, acc: this.acc, bits: this.bits, marker: this.marker, consumed: this.fed - this.bits };
  }

  /** Copies the next `n` bits into `w` as they are (unstuffed here, stuffed again there). */
  copyTo(w: BitWriter, n: number): void {
    for (; n >= 24; n -= 24) w.write(this.receive(24), 24);
    w.write(this.receive(n), n);
  }

  bit(): number {
    if (this.bits === 0) this.fill();
    this.bits--;
    return (this.acc >>> this.bits) & 1;
  }

  receive(n: number): number {
    if (n === 0) return 0;
    if (this.bits < n) this.fill();
    this.bits -= n;
    return (this.acc >>> this.bits) & ((1 << n) - 1);
  }

  /** A magnitude category's extra bits as a signed value (F.2.2.1 EXTEND). */
  receiveExtend(n: number): number {
    if (n === 0) return 0;
    const v = this.receive(n);
    return v < 1 << (n - 1) ? v - (1 << n) + 1 : v;
  }

  decode(t: DecodeTable): number {
    if (this.bits < 16) this.fill();
    const peek = (this.acc >>> (this.bits - 9)) & 0x1ff;
    const hit = t.lookup[peek];
    if (hit >= 0) {
      this.bits -= hit >> 8;
      return hit & 0xff;
    }
    let code = 0;
    for (let len = 1; len <= 16; len++) {
      code = (code << 1) | this.bit();
      if (code <= t.maxcode[len]) return t.symbols[t.valptr[len] + code - t.mincode[len]];
    }
    throw new Error("bad Huffman code");
  }

  /**
   * An AC run and value whose code and extra bits fit the 9-bit lookahead,
   * consumed at once: `DecodeTable.fastAc`'s entry, or 0 (nothing consumed).
   */
  fastAc(t: DecodeTable): number {
    if (this.bits < 16) this.fill();
    const e = t.fastAc[(this.acc >>> (this.bits - 9)) & 0x1ff];
    this.bits -= e & 15;
    return e;
  }

  /** At a restart interval's end: drop the partial byte and step over RSTn. */
  restart(): void {
    this.acc = 0;
    this.bits = 0;
    if (this.marker >= 0xd0 && this.marker <= 0xd7) {
      this.pos += 2;
      this.marker = -1;
      return;
    }
    // No marker seen yet: find it (a decoder must resynchronise on it).
    while (this.pos + 1 < this.b.length && !(this.b[this.pos] === 0xff && this.b[this.pos + 1] >= 0xd0 && this.b[this.pos + 1] <= 0xd7)) this.pos++;
    if (this.pos + 1 < this.b.length) this.pos += 2;
    this.marker = -1;
  }
}

export class BitWriter {
  private buf: Uint8Array;
  length = 0;
  private acc = 0;
  private bits = 0;

  constructor(initial = 65536) {
    this.buf = new Uint8Array(initial);
  }

  private grow(): void {
    const next = new Uint8Array(this.buf.length * 2);
    next.set(this.buf);
    this.buf = next;
  }

  /**
   * Appends the low `n` bits of `value`, n at most 24 (fewer than 8 bits wait
   * between calls, so the accumulator never passes 31). The hot path of every
   * JPEG we write: whole bytes leave at once, the buffer is checked once.
   */
  write(value: number, n: number): void {
    if (n === 0) return;
    let bits = this.bits + n;
    let acc = (this.acc << n) | (value & ((1 << n) - 1));
    if (bits >= 8) {
      // At most 3 bytes, each perhaps stuffed.
      if (this.length + 6 > this.buf.length) this.grow();
      const buf = this.buf;
      let length = this.length;
      do {
        bits -= 8;
        const v = (acc >>> bits) & 0xff;
        buf[length++] = v;
        if (v === 0xff) buf[length++] = 0;
      } while (bits >= 8);
      this.length = length;
      acc &= (1 << bits) - 1;
    }
    this.acc = acc;
    this.bits = bits;
  }

  symbol(t: EncodeTable, s: number): void {
    const size = t.size[s];
    if (!size) throw new Error(`no Huffman code for symbol ${s}`);
    this.write(t.code[s], size);
  }

  /** Pads the last byte with 1-bits (F.1.2.3). */
  flush(): void {
    if (this.bits > 0) this.write(0x7f, 8 - this.bits);
  }

  /** Takes the bytes written so far and empties the writer. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.length);
    this.length = 0;
    return out;
  }
}

/** Magnitude category of a coefficient value (number of bits). */
export const category = (v: number): number => 32 - Math.clz32(v < 0 ? -v : v);

/** The extra bits written after a category: v, or v-1 in n bits for negatives. */
export const extraBits = (v: number, n: number): number => (v < 0 ? v - 1 : v) & ((1 << n) - 1);
