import type { ByteStream } from "./byte-stream";

// PackBits (compression 32773) decoded incrementally: a header byte n, then
// n+1 literal bytes (0..127) or one byte repeated 1-n times (-127..-1); -128
// is a no-op. A run may cross a row, so the run in progress is kept.

export class PackBitsStream implements ByteStream {
  private at = 0;
  private literal = 0;
  private repeat = 0;
  private value = 0;

  constructor(private readonly data: Uint8Array) {}

  read(out: Uint8Array): number {
    const data = this.data;
    let o = 0;
    while (o < out.length) {
      if (this.literal > 0) {
        const k = Math.min(this.literal, out.length - o, data.length - this.at);
        if (k <= 0) break;
        out.set(data.subarray(this.at, this.at + k), o);
        this.at += k;
        this.literal -= k;
        o += k;
        continue;
      }
      if (this.repeat > 0) {
        const k = Math.min(this.repeat, out.length - o);
        out.fill(this.value, o, o + k);
        this.repeat -= k;
        o += k;
        continue;
      }
      if (this.at >= data.length) break;
      const n = (data[this.at++] << 24) >> 24;
      if (n >= 0) this.literal = n + 1;
      else if (n > -128) {
        if (this.at >= data.length) break;
        this.repeat = 1 - n;
        this.value = data[this.at++];
      }
    }
    return o;
  }
}
