import type { GrayImage } from "../quality/ssim";

export type QuarterTurn = 0 | 90 | 180 | 270;

/** The image turned clockwise by a quarter-turn multiple (exact: no resampling). */
export function rotateGray(img: GrayImage, turn: QuarterTurn): GrayImage {
  if (turn === 0) return img;
  const { width: w, height: h, data } = img;
  const [ow, oh] = turn === 180 ? [w, h] : [h, w];
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = data[y * w + x];
      // Where source pixel (x, y) lands after a clockwise turn.
      const [nx, ny] = turn === 90 ? [h - 1 - y, x] : turn === 180 ? [w - 1 - x, h - 1 - y] : [y, w - 1 - x];
      out[ny * ow + nx] = v;
    }
  }
  return { data: out, width: ow, height: oh };
}

/** The image reduced by an integer factor (box filter); factor 1 answers it as it is. */
export function shrinkGray(img: GrayImage, factor: number): GrayImage {
  if (factor <= 1) return img;
  const width = Math.floor(img.width / factor);
  const height = Math.floor(img.height / factor);
  const out = new Uint8Array(width * height);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * img.width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += img.data[row + dx];
      }
      out[y * width + x] = sum / area;
    }
  }
  return { data: out, width, height };
}
