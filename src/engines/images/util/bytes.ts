// Tiny big/little-endian readers shared by the header parsers.

export const u16be = (b: Uint8Array, at: number): number => (b[at] << 8) | b[at + 1];
export const u16le = (b: Uint8Array, at: number): number => b[at] | (b[at + 1] << 8);
export const u24le = (b: Uint8Array, at: number): number => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
export const u32be = (b: Uint8Array, at: number): number => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
export const u32le = (b: Uint8Array, at: number): number => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
export const i32le = (b: Uint8Array, at: number): number => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);

export function ascii(b: Uint8Array, at: number, length: number): string {
  let s = "";
  for (let i = 0; i < length && at + i < b.length; i++) s += String.fromCharCode(b[at + i]);
  return s;
}

// One concat for the whole Worker; re-exported for the image writers.
export { concat } from "../../../runtime/bytes";

/** A growable byte sink for writers. */
export class ByteWriter {
  private buf: Uint8Array;
  length = 0;

  constructor(initial = 1024) {
    this.buf = new Uint8Array(initial);
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v & 0xff;
  }

  u16be(v: number): void {
    this.u8(v >> 8);
    this.u8(v);
  }

  u16le(v: number): void {
    this.u8(v);
    this.u8(v >> 8);
  }

  u32be(v: number): void {
    this.u16be(v >>> 16);
    this.u16be(v & 0xffff);
  }

  u32le(v: number): void {
    this.u16le(v & 0xffff);
    this.u16le(v >>> 16);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  text(s: string): void {
    for (let i = 0; i < s.length; i++) this.u8(s.charCodeAt(i));
  }

  /** Overwrites 4 bytes already written (sizes known only afterwards). */
  patchU32be(at: number, v: number): void {
    this.buf[at] = v >>> 24;
    this.buf[at + 1] = (v >>> 16) & 0xff;
    this.buf[at + 2] = (v >>> 8) & 0xff;
    this.buf[at + 3] = v & 0xff;
  }

  patchU32le(at: number, v: number): void {
    this.buf[at] = v & 0xff;
    this.buf[at + 1] = (v >>> 8) & 0xff;
    this.buf[at + 2] = (v >>> 16) & 0xff;
    this.buf[at + 3] = v >>> 24;
  }

  /** The bytes written; no copy when the buffer was sized exactly (big files are written that way). */
  result(): Uint8Array {
    return this.length === this.buf.length ? this.buf : this.buf.slice(0, this.length);
  }
}
