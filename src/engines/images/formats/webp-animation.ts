import { ByteWriter, concat, u24le } from "../util/bytes";
import { webpChunks } from "./metadata";
import type { Pixels } from "../types";

// libwebp's still decoder refuses animations. We lift the first frame (its
// ALPH + VP8 or VP8L chunks) into a still WebP, decode that, and place it on
// the canvas at its offset, as a viewer shows frame one.

export interface FirstFrame {
  still: Uint8Array;
  x: number;
  y: number;
  canvasWidth: number;
  canvasHeight: number;
  frames: number;
}

export function isAnimatedWebp(b: Uint8Array): boolean {
  const first = webpChunks(b)[0];
  return first?.type === "VP8X" && (first.data[0] & 0x02) !== 0;
}

export function firstFrame(b: Uint8Array): FirstFrame | null {
  const chunks = webpChunks(b);
  const vp8x = chunks[0];
  const frames = chunks.filter((c) => c.type === "ANMF");
  if (vp8x?.type !== "VP8X" || !frames.length) return null;
  const f = frames[0].data;
  if (f.length < 16) return null;
  const inner: Uint8Array[] = [];
  let alpha = false;
  let at = 16;
  while (at + 8 <= f.length) {
    const len = f[at + 4] | (f[at + 5] << 8) | (f[at + 6] << 16) | (f[at + 7] << 24);
    const type = String.fromCharCode(...f.subarray(at, at + 4));
    const chunk = f.subarray(at, Math.min(f.length, at + 8 + len + (len & 1)));
    if (type === "ALPH") alpha = true;
    if (type === "ALPH" || type === "VP8 " || type === "VP8L") inner.push(chunk);
    at += 8 + len + (len & 1);
  }
  if (!inner.length) return null;
  const fw = u24le(f, 6) + 1;
  const fh = u24le(f, 9) + 1;
  const body: Uint8Array[] = [];
  if (alpha) {
    const header = new Uint8Array(18);
    header.set([0x56, 0x50, 0x38, 0x58, 10, 0, 0, 0, 0x10]);
    header.set([(fw - 1) & 0xff, ((fw - 1) >> 8) & 0xff, (fw - 1) >> 16, (fh - 1) & 0xff, ((fh - 1) >> 8) & 0xff, (fh - 1) >> 16], 12);
    body.push(header);
  }
  body.push(...inner);
  const payload = concat(body);
  const w = new ByteWriter(payload.length + 12);
  w.text("RIFF");
  w.u32le(payload.length + 4);
  w.text("WEBP");
  w.bytes(payload);
  return {
    still: w.result(),
    x: u24le(f, 0) * 2,
    y: u24le(f, 3) * 2,
    canvasWidth: u24le(vp8x.data, 4) + 1,
    canvasHeight: u24le(vp8x.data, 7) + 1,
    frames: frames.length,
  };
}

/** Places a decoded frame on a transparent canvas. */
export function placeOnCanvas(frame: Pixels, x: number, y: number, width: number, height: number): Pixels {
  if (x === 0 && y === 0 && frame.width === width && frame.height === height) return frame;
  const out = new Uint8Array(width * height * 4);
  for (let row = 0; row < frame.height && y + row < height; row++) {
    const n = Math.min(frame.width, width - x);
    if (n <= 0) break;
    const src = frame.data.subarray(row * frame.width * 4, (row * frame.width + n) * 4);
    out.set(src, ((y + row) * width + x) * 4);
  }
  return { data: out, width, height };
}
