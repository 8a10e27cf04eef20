// The page model the layout engine builds: plain data, no MuPDF objects, so
// every step after extraction is a pure function that tests can feed by hand.

/** x0, y0, x1, y1 in page space, top-left origin (MuPDF structured text). */
export type Rect = [number, number, number, number];

export interface Style {
  bold: boolean;
  italic: boolean;
  mono: boolean;
}

/** A run of characters on one line in one font, size and link. */
export interface Span extends Style {
  text: string;
  size: number;
  box: Rect;
  /** External URI the run is linked to. */
  link?: string;
}

export interface Word {
  text: string;
  box: Rect;
}

/**
 * A visual line segment: characters on one baseline with no gap wider than a
 * column gutter. Two segments on one baseline are two cells or two columns.
 */
export interface TextLine {
  box: Rect;
  spans: Span[];
  words: Word[];
  /** Font size with most characters on the line. */
  size: number;
}

export interface RawPage {
  /** 0-based. */
  index: number;
  width: number;
  height: number;
  lines: TextLine[];
  /** Thin filled or stroked rectangles: candidate table rules. */
  rules: Rect[];
  images: Rect[];
  /**
   * Drawings made of filled shapes with no text over them (charts, diagrams
   * drawn as vectors): they take part in reading order as pictures do, so a
   * chart across the page ends the columns above it.
   */
  graphics?: Rect[];
  /** True when the page has no text at all (a scan without OCR layer). */
  needsOcr: boolean;
  /** True when the page is read turned (its text runs down or up): boxes are not the page's own. */
  turned?: boolean;
}

/**
 * A page after its tables are found: the lines left over (without word
 * boxes, which only the table readers need) and the tables. What a long
 * document keeps of each page until every page is read.
 */
export interface ScannedPage extends RawPage {
  tables: Table[];
}

export interface Cell {
  text: string;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

export interface Table {
  kind: "lattice" | "stream";
  box: Rect;
  /** rows x cols; a merged cell's text sits in its top-left slot, the others are "". */
  rows: string[][];
  /** 0..1: how sure the detector is that this is a table, not prose. */
  confidence: number;
}

export type Block =
  | { kind: "heading"; level: number; spans: Span[]; size: number; box: Rect }
  | { kind: "paragraph"; spans: Span[]; box: Rect }
  | { kind: "list-item"; ordered: boolean; marker: string; depth: number; spans: Span[]; box: Rect }
  | { kind: "code"; lines: string[]; box: Rect }
  | { kind: "table"; table: Table; box: Rect }
  | { kind: "image"; index: number; box: Rect };

export interface PageModel {
  index: number;
  blocks: Block[];
  needsOcr: boolean;
}
