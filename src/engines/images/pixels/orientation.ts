import type { Pixels } from "../types";

// EXIF orientation (1..8): the transform that makes the stored pixels upright.

/** Orientations 5..8 swap width and height. */
export const swapsAxes = (orientation: number): boolean => orientation >= 5 && orientation <= 8;

/**
 * Where the pixels of stored row `y` land in the upright raster: stored pixel
 * (x, y) goes to upright index `base + x * step` (index = row * upright width
 * + column). Lets a writer place rows as they arrive, in stored order, without
 * an upright copy of the picture.
 */
export function rowPlacement(orientation: number, w: number, h: number, y: number): { base: number; step: number } {
  const ow = swapsAxes(orientation) ? h : w;
  switch (orientation) {
    case 2:
      return { base: y * ow + w - 1, step: -1 };
    case 3:
      return { base: (h - 1 - y) * ow + w - 1, step: -1 };
    case 4:
      return { base: (h - 1 - y) * ow, step: 1 };
    case 5:
      return { base: y, step: ow };
    case 6:
      return { base: h - 1 - y, step: ow };
    case 7:
      return { base: (w - 1) * ow + h - 1 - y, step: -ow };
    case 8:
      return { base: (w - 1) * ow + y, step: -ow };
    default:
      return { base: y * ow, step: 1 };
  }
}

/** Returns upright pixels; orientation 1 returns the input itself. */
export function applyOrientation(px: Pixels, orientation: number): Pixels {
  if (orientation <= 1 || orientation > 8) return px;
  const { width: w, height: h } = px;
  const swap = swapsAxes(orientation);
  const src = new Uint32Array(px.data.buffer, px.data.byteOffset, w * h);
  const out = new Uint8Array(w * h * 4);
  const dst = new Uint32Array(out.buffer);
  for (let y = 0; y < h; y++) {
    const { base, step } = rowPlacement(orientation, w, h, y);
    for (let x = 0, i = base; x < w; x++, i += step) dst[i] = src[y * w + x];
  }
  return { data: out, width: swap ? h : w, height: swap ? w : h };
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
