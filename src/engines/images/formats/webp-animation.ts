import { u24le } from "../util/bytes";
import { chunkBytes, vp8xChunk, webpChunks, webpFile } from "./webp-riff";
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
  const kept = webpChunks(f, 16).filter((c) => c.type === "ALPH" || c.type === "VP8 " || c.type === "VP8L");
  const inner = kept.map((c) => chunkBytes(f, c));
  const alpha = kept.some((c) => c.type === "ALPH");
  if (!inner.length) return null;
  const fw = u24le(f, 6) + 1;
  const fh = u24le(f, 9) + 1;
  return {
    // libwebp wants the alpha flag in a VP8X header before an ALPH chunk.
    still: webpFile(alpha ? [vp8xChunk(0x10, fw, fh), ...inner] : inner),
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
