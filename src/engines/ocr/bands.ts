import type { GrayImage } from "../quality/ssim";

/**
 * Tesseract's heap grows by about 16 bytes per pixel of the image it reads
 * (its own RGBA, gray and binary copies), so a 300-dpi A4 page would take
 * 140 MB of an isolate's 128. A page is read in horizontal bands of at most
 * this many pixels, cut where a row has no ink (between text lines).
 */
export const BAND_PIXELS = 1_200_000;

/** A gray value darker than this is ink. */
const INK = 160;

export interface Band {
  top: number;
  image: GrayImage;
}

/** The image cut into bands of at most `maxPixels`, each ending on the emptiest row near its limit. */
export function bands(img: GrayImage, maxPixels = BAND_PIXELS): Band[] {
  const { width, height, data } = img;
  const maxRows = Math.max(64, Math.floor(maxPixels / width));
  if (height <= maxRows) return [{ top: 0, image: img }];
  const ink = rowInk(img);
  const out: Band[] = [];
  let top = 0;
  while (top < height) {
    let end = Math.min(height, top + maxRows);
    if (end < height) end = emptiestRow(ink, top + Math.floor(maxRows / 3), end);
    out.push({ top, image: { width, height: end - top, data: data.subarray(top * width, end * width) } });
    top = end;
  }
  return out;
}

function rowInk({ width, height, data }: GrayImage): Uint32Array {
  const ink = new Uint32Array(height);
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let i = y * width, end = i + width; i < end; i++) if (data[i] < INK) n++;
    ink[y] = n;
  }
  return ink;
}

/** The row with the least ink in [from, to), the latest of equals (bands as tall as allowed). */
function emptiestRow(ink: Uint32Array, from: number, to: number): number {
  let best = to - 1;
  for (let y = to - 1; y >= from; y--) if (ink[y] < ink[best]) best = y;
  return best;
}
