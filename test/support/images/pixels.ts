import { decodeImage, upright } from "../../../src/engines/images/codecs/decode";
import type { Pixels } from "../../../src/engines/images/types";

// Pixel checks (orientation, alpha) need a decoder; these are the codecs'
// own (libjpeg, libpng, libwebp, libavif), not the code under test's logic.
export async function pixelsOf(bytes: Uint8Array): Promise<Pixels> {
  return upright(await decodeImage(bytes));
}

export function rgbaAt(px: Pixels, x: number, y: number): number[] {
  const o = (y * px.width + x) * 4;
  return Array.from(px.data.subarray(o, o + 4));
}

/** Channels within `tol` of the expectation. */
export function near(actual: number[], expected: number[], tol: number): boolean {
  return expected.every((v, i) => Math.abs(actual[i] - v) <= tol);
}
