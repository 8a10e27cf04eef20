import type { QuarterTurn } from "../rotate";
import type { OcrWord } from "../recognize";
import { CAP, DESCENT, X_HEIGHT } from "../../text/letter-metrics";

// Pure: where each recognised word's invisible text goes. Tesseract gives a
// word's box, not its baseline, so each line's baseline and em are found
// from what its letters reach: capitals and ascenders reach 0.72 em above
// the baseline (Helvetica's cap height), other letters 0.52 (x-height),
// descenders 0.21 below it. All words of a line share them, as printed text does.

/** A point of the page as MuPDF renders it: points from the page box's top-left, y down. */
export type Point = [number, number];

export interface PlacedWord {
  text: string;
  confidence: number;
  /** The baseline's start and end, and the point one em above its start, in page points (y down). */
  origin: Point;
  end: Point;
  top: Point;
  /** Last word of its line: no space follows it. */
  lineEnd: boolean;
}

const TALL = /[\p{Lu}\p{N}bdfhklt'"!?/\\|()[\]{}ßÀ-ÖØ-Ýàáâãäåèéêëìíîïòóôõöùúûüçñ]/u;
const DEEP = /[gjpqyçµ,;()[\]{}|]/u;

/**
 * Words in the upright image's pixels (the OCR Worker's answer) placed on
 * the page: boxes are turned back by `turn` into the rendered page's pixels,
 * then scaled to points, so a word sits where it is in the picture and runs
 * in the picture's direction.
 */
export function placeWords(words: OcrWord[], turn: QuarterTurn, rendered: { width: number; height: number }, pointsPerPixel: number): PlacedWord[] {
  const toPage = pageMapping(turn, rendered.width, rendered.height, pointsPerPixel);
  const lines = new Map<number, OcrWord[]>();
  for (const w of words) lines.set(w.line, [...(lines.get(w.line) ?? []), w]);
  const out: PlacedWord[] = [];
  for (const line of lines.values()) {
    line.sort((a, b) => a.box[0] - b.box[0]);
    const text = line.map((w) => w.text).join("");
    const top = Math.min(...line.map((w) => w.box[1]));
    const bottom = Math.max(...line.map((w) => w.box[3]));
    const above = TALL.test(text) ? CAP : X_HEIGHT;
    const below = DEEP.test(text) ? DESCENT : 0;
    const em = Math.max(1, (bottom - top) / (above + below));
    const baseline = bottom - below * em;
    line.forEach((w, i) => {
      out.push({
        text: w.text,
        confidence: w.confidence,
        origin: toPage(w.box[0], baseline),
        end: toPage(w.box[2], baseline),
        top: toPage(w.box[0], baseline - em),
        lineEnd: i === line.length - 1,
      });
    });
  }
  return out;
}

/** Upright-image pixels to page points: the inverse of rotateGray's clockwise turn on a `w` x `h` render. */
function pageMapping(turn: QuarterTurn, w: number, h: number, scale: number): (x: number, y: number) => Point {
  const unturn: Record<QuarterTurn, (x: number, y: number) => Point> = {
    0: (x, y) => [x, y],
    90: (x, y) => [y, h - x],
    180: (x, y) => [w - x, h - y],
    270: (x, y) => [w - y, x],
  };
  return (x, y) => {
    const [px, py] = unturn[turn](x, y);
    return [px * scale, py * scale];
  };
}
