import { ascii, ByteWriter, concat, u32le } from "../util/bytes";

// A WebP file's RIFF container: reading its chunk list and writing one back.
// The still and animation paths both rebuild files from chunks they keep.

export interface RiffChunk {
  type: string;
  start: number;
  data: Uint8Array;
}

/** The chunks from `at` on (12 skips the file's RIFF/WEBP header; an ANMF frame's own list starts at 16 of its data). */
export function webpChunks(b: Uint8Array, at = 12): RiffChunk[] {
  const out: RiffChunk[] = [];
  while (at + 8 <= b.length) {
    const len = u32le(b, at + 4);
    const end = Math.min(b.length, at + 8 + len);
    out.push({ type: ascii(b, at, 4), start: at, data: b.subarray(at + 8, end) });
    at += 8 + len + (len & 1);
  }
  return out;
}

/** A chunk as it stands in `b`, header and padding byte included. */
export function chunkBytes(b: Uint8Array, c: RiffChunk): Uint8Array {
  return b.subarray(c.start, c.start + 8 + c.data.length + (c.data.length & 1));
}

export function riffChunk(type: string, data: Uint8Array): Uint8Array {
  const w = new ByteWriter(data.length + 9);
  w.text(type);
  w.u32le(data.length);
  w.bytes(data);
  if (data.length & 1) w.u8(0);
  return w.result();
}

/** The extended-layout header chunk: feature flags and the canvas size (24 bits each, minus one). */
export function vp8xChunk(flags: number, width: number, height: number): Uint8Array {
  const header = new Uint8Array(10);
  header[0] = flags;
  const cw = width - 1,
    ch = height - 1;
  header.set([cw & 0xff, (cw >> 8) & 0xff, (cw >> 16) & 0xff, ch & 0xff, (ch >> 8) & 0xff, (ch >> 16) & 0xff], 4);
  return riffChunk("VP8X", header);
}

/** A WebP file of these chunks. */
export function webpFile(chunks: Uint8Array[]): Uint8Array {
  const payload = concat(chunks);
  const w = new ByteWriter(payload.length + 12);
  w.text("RIFF");
  w.u32le(payload.length + 4);
  w.text("WEBP");
  w.bytes(payload);
  return w.result();
}
