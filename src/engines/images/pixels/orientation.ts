import type { Pixels } from "../types";

// EXIF orientation (1..8): the transform that makes the stored pixels upright.

/** Orientations 5..8 swap width and height. */
export const swapsAxes = (orientation: number): boolean => orientation >= 5 && orientation <= 8;

/** Returns upright pixels; orientation 1 returns the input itself. */
export function applyOrientation(px: Pixels, orientation: number): Pixels {
  if (orientation <= 1 || orientation > 8) return px;
  const { width: w, height: h } = px;
  const swap = swapsAxes(orientation);
  const ow = swap ? h : w;
  const oh = swap ? w : h;
  const src = new Uint32Array(px.data.buffer, px.data.byteOffset, w * h);
  const out = new Uint8Array(w * h * 4);
  const dst = new Uint32Array(out.buffer);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let dx: number, dy: number;
      switch (orientation) {
        case 2:
          dx = w - 1 - x;
          dy = y;
          break;
        case 3:
          dx = w - 1 - x;
          dy = h - 1 - y;
          break;
        case 4:
          dx = x;
          dy = h - 1 - y;
          break;
        case 5:
          dx = y;
          dy = x;
          break;
        case 6:
          dx = h - 1 - y;
          dy = x;
          break;
        case 7:
          dx = h - 1 - y;
          dy = w - 1 - x;
          break;
        default:
          dx = y;
          dy = w - 1 - x;
          break; // 8
      }
      dst[dy * ow + dx] = src[y * w + x];
    }
  }
  return { data: out, width: ow, height: oh };
}

/**
 * HEIF transforms as one EXIF orientation: `irot` turns anti-clockwise by
 * angle*90 degrees, then `imir` mirrors (ISO/IEC 23008-12:2022, as libavif
 * and libheif read it: axis 0 exchanges top and bottom, 1 left and right).
 */
export function heifOrientation(angle: number, mirrorAxis: number | undefined): number {
  // Rotation only: 0 -> 1, 90 ccw -> 8, 180 -> 3, 270 ccw -> 6.
  const rot = [1, 8, 3, 6][angle & 3];
  if (mirrorAxis === undefined) return rot;
  // A mirror after a rotation, written as the single equivalent orientation.
  const leftRight: Record<number, number> = { 1: 2, 8: 7, 3: 4, 6: 5 };
  const topBottom: Record<number, number> = { 1: 4, 8: 5, 3: 2, 6: 7 };
  return (mirrorAxis === 1 ? leftRight : topBottom)[rot];
}
