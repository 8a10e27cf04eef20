// What PDF to DOCX reads from a page, in MuPDF's page space (points, origin
// top left, y down): glyphs with their style, pictures, and the thin vector
// strokes that rule tables and underline text.

export type Rect = [number, number, number, number];

export interface GlyphStyle {
  /** Family as Word names it ("Arial", "Times New Roman"), subset tag and style suffixes gone. */
  font: string;
  /** Points. */
  size: number;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  /** `rrggbb`. */
  color: string;
}

export interface Glyph extends GlyphStyle {
  c: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  baseline: number;
}

export interface TextLine {
  glyphs: Glyph[];
}

export interface TextBlock {
  kind: "text";
  lines: TextLine[];
}

export interface Picture {
  kind: "image";
  bbox: Rect;
  png: Uint8Array;
}

export type Block = TextBlock | Picture;

export interface PageContent {
  width: number;
  height: number;
  blocks: Block[];
  /** Thin horizontal or vertical strokes and stroked rectangles' edges. */
  rules: Rect[];
}

export const lineBox = (line: TextLine): Rect => {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const g of line.glyphs) {
    x0 = Math.min(x0, g.x0);
    y0 = Math.min(y0, g.y0);
    x1 = Math.max(x1, g.x1);
    y1 = Math.max(y1, g.y1);
  }
  return [x0, y0, x1, y1];
};

export const union = (a: Rect | null, b: Rect): Rect => (a ? [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])] : b);
