import type { Glyph } from "./geometry";
import type { Rect } from "./types";

// Pages set sideways: text that runs down (clockwise) or up the page is
// turned upright so rows and columns read as on an upright page.

export type Orientation = "up" | "cw" | "ccw";

export function orientationOf(dir: [number, number] | number[]): Orientation | null {
  if (Math.abs(dir[1]) < 0.1 && dir[0] > 0) return "up";
  if (Math.abs(dir[0]) < 0.1) return dir[1] > 0 ? "cw" : "ccw";
  return null;
}

const inkCount = (lines: Glyph[][]) => lines.reduce((n, l) => n + l.filter((g) => g.c.trim()).length, 0);

export function dominant(raw: Record<Orientation, Glyph[][]>): Orientation {
  const up = inkCount(raw.up);
  const cw = inkCount(raw.cw);
  const ccw = inkCount(raw.ccw);
  if (cw > 2 * up && cw >= ccw) return "cw";
  if (ccw > 2 * up) return "ccw";
  return "up";
}

/** A box on a page turned so its text runs left to right (w, h: the page as drawn). */
export function rotate(b: Rect, turn: Orientation, w: number, h: number): Rect {
  if (turn === "cw") return [b[1], w - b[2], b[3], w - b[0]];
  if (turn === "ccw") return [h - b[3], b[0], h - b[1], b[2]];
  return b;
}
