// Pure geometry for stamps (watermarks, page numbers): where a stamp goes in
// the page as the reader sees it ("visual space": origin top-left, y down,
// rotation and crop box already applied). Matrices are PDF-style
// [a b c d e f], applied to row vectors: x' = a x + c y + e.

export type Mat = [number, number, number, number, number, number];
export type Box = [number, number, number, number];

export const IDENTITY: Mat = [1, 0, 0, 1, 0, 0];

/** `first`, then `second`. */
export function concat(first: Mat, second: Mat): Mat {
  const [a, b, c, d, e, f] = first;
  const [A, B, C, D, E, F] = second;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

export function invert(m: Mat): Mat {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (det === 0) return IDENTITY;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export const translate = (x: number, y: number): Mat => [1, 0, 0, 1, x, y];
export const scale = (sx: number, sy: number): Mat => [sx, 0, 0, sy, 0, 0];
export function rotate(degrees: number): Mat {
  const r = (degrees * Math.PI) / 180;
  const cos = Math.abs(Math.cos(r)) < 1e-12 ? 0 : Math.cos(r);
  const sin = Math.abs(Math.sin(r)) < 1e-12 ? 0 : Math.sin(r);
  return [cos, sin, -sin, cos, 0, 0];
}

export function apply(m: Mat, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** A stamp drawn in its own y-up space over `box`, shown `size` times bigger. */
export interface Stamp {
  box: Box;
  scale: number;
  /** Counter-clockwise degrees, as the reader sees them. */
  angle: number;
}

/**
 * Maps stamp space to visual space with the box centre at (cx, cy): y is
 * flipped (stamp space is y-up, visual is y-down), and a counter-clockwise
 * turn on screen is a negative angle once y points down.
 */
export function stampMatrix(stamp: Stamp, cx: number, cy: number): Mat {
  const [x0, y0, x1, y1] = stamp.box;
  let m = translate(-(x0 + x1) / 2, -(y0 + y1) / 2);
  m = concat(m, scale(stamp.scale, -stamp.scale));
  m = concat(m, rotate(-stamp.angle));
  return concat(m, translate(cx, cy));
}

/** Width and height of the stamp's visual bounding box after rotation. */
export function visualSize(stamp: Stamp): [number, number] {
  const w = (stamp.box[2] - stamp.box[0]) * stamp.scale;
  const h = (stamp.box[3] - stamp.box[1]) * stamp.scale;
  const r = (stamp.angle * Math.PI) / 180;
  const cos = Math.abs(Math.cos(r));
  const sin = Math.abs(Math.sin(r));
  return [w * cos + h * sin, w * sin + h * cos];
}

export const POSITIONS = ["center", "top-left", "top-right", "bottom-left", "bottom-right", "top-center", "bottom-center"] as const;
export type Position = (typeof POSITIONS)[number];

/**
 * Centre of a stamp of visual size (w, h) anchored at `position` on a page
 * of visual size (pw, ph), `margin` from the edges. A stamp wider than the
 * page stays centred on that axis rather than hanging off one side.
 */
export function anchorCenter(position: Position, page: [number, number], size: [number, number], margin: number): [number, number] {
  const [pw, ph] = page;
  const [w, h] = size;
  const [vertical, horizontal] = position === "center" ? ["center", "center"] : position.split("-");
  const along = (edge: string, span: number, extent: number, start: string, end: string): number => {
    if (extent + 2 * margin >= span || edge === "center") return span / 2;
    if (edge === start) return margin + extent / 2;
    if (edge === end) return span - margin - extent / 2;
    return span / 2;
  };
  return [along(horizontal ?? "center", pw, w, "left", "right"), along(vertical, ph, h, "top", "bottom")];
}

export interface TileOptions {
  /** Distance between stamp centres along a row and between rows (stamp space, before rotation). */
  stepX: number;
  stepY: number;
  /** Shift every other row by half a step (a staggered grid). */
  stagger: boolean;
  /** Hard cap on stamps per page: tiny stamps on huge pages stay bounded. */
  max: number;
}

/**
 * Centres of a tiled pattern whose rows run along the stamp's angle and
 * cover the whole page. Rows are laid out in the rotated frame, so rotated
 * text forms diagonal lines instead of a ragged axis-aligned grid.
 */
export function tileCenters(page: [number, number], angle: number, opts: TileOptions): [number, number][] {
  // Spread the lattice evenly until it fits under the cap (rather than cut
  // off the last rows).
  let spread = Math.max(1, Math.sqrt((page[0] * page[1]) / (opts.stepX * opts.stepY) / opts.max));
  for (;;) {
    const centres = lattice(page, angle, opts.stepX * spread, opts.stepY * spread, opts.stagger);
    if (centres.length <= opts.max) return centres;
    spread *= 1.1;
  }
}

function lattice(page: [number, number], angle: number, stepX: number, stepY: number, stagger: boolean): [number, number][] {
  const [pw, ph] = page;
  const toPage = concat(rotate(-angle), translate(pw / 2, ph / 2));
  const reach = Math.hypot(pw, ph) / 2 + Math.max(stepX, stepY);
  const rows = Math.ceil(reach / stepY);
  const cols = Math.ceil(reach / stepX) + 1;
  const out: [number, number][] = [];
  for (let r = -rows; r <= rows; r++) {
    const shift = stagger && r % 2 !== 0 ? stepX / 2 : 0;
    for (let c = -cols; c <= cols; c++) {
      const [x, y] = apply(toPage, c * stepX + shift, r * stepY);
      if (x >= -stepX / 2 && x <= pw + stepX / 2 && y >= -stepY / 2 && y <= ph + stepY / 2) out.push([x, y]);
    }
  }
  return out;
}
