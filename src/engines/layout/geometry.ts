import type { Rect, Style } from "./types";

/** The smallest box holding both. */
export const union = (a: Rect, b: Rect): Rect => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];

/** One character of a line as MuPDF reports it, in logical order. */
export interface Glyph {
  c: string;
  box: Rect;
  size: number;
  style: Style;
  link: string | undefined;
}
