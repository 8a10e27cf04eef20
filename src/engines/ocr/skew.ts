import type { OcrWord } from "./recognize";

/** Lines steeper than this (radians) are not text lines but misgrouped words. */
const MAX_SKEW = 0.15;

/**
 * The page's skew (radians, positive when lines fall to the right) from the
 * slope of word centres along each recognised line with three words or
 * more: the median over lines, so a table row or a heading does not sway it.
 */
export function skewOf(words: OcrWord[]): number {
  const byLine = new Map<number, OcrWord[]>();
  for (const w of words) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  const slopes: number[] = [];
  for (const line of byLine.values()) {
    if (line.length < 3) continue;
    const pts = line.map((w) => [(w.box[0] + w.box[2]) / 2, w.box[3]] as const);
    const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
    const my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
    const sxx = pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
    if (sxx === 0) continue;
    const slope = pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / sxx;
    if (Math.abs(slope) < MAX_SKEW) slopes.push(slope);
  }
  if (!slopes.length) return 0;
  slopes.sort((a, b) => a - b);
  return Math.atan(slopes[Math.floor(slopes.length / 2)]);
}

/**
 * Word boxes turned by -angle about the image centre: each word moves with
 * its centre and loses the height its tilt added, so the lines of a slightly skewed scan lie
 * level for the layout engine (rows, columns, tables).
 */
export function deskewWords(words: OcrWord[], angle: number, width: number, height: number): OcrWord[] {
  if (Math.abs(angle) < 0.002) return words;
  const [cx, cy] = [width / 2, height / 2];
  const [cos, sin] = [Math.cos(-angle), Math.sin(-angle)];
  return words.map((w) => {
    const [x, y] = [(w.box[0] + w.box[2]) / 2 - cx, (w.box[1] + w.box[3]) / 2 - cy];
    const [nx, ny] = [cx + x * cos - y * sin, cy + x * sin + y * cos];
    // A tilted word's upright box is taller than the word by its width times the tilt.
    const [bw, bh] = [(w.box[2] - w.box[0]) / 2, (w.box[3] - w.box[1]) / 2];
    const hh = Math.max((bh - bw * Math.abs(sin)) / cos, bh / 2);
    const hw = Math.max((bw - bh * Math.abs(sin)) / cos, bw / 2);
    return { ...w, box: [nx - hw, ny - hh, nx + hw, ny + hh] };
  });
}
