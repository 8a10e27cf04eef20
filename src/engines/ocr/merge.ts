import type { OcrWord } from "./recognize";

/** Two lines whose boxes share more than this part of the smaller one are the same line read twice. */
const SAME_LINE = 0.5;

type Box = OcrWord["box"];

/**
 * One reading out of several of the same page (one per language): each text
 * line is taken from the reading whose mean confidence over its characters
 * is highest, and a line of another reading is dropped where it covers a
 * line already taken. Lines are then renumbered from the top.
 */
export function mergeReadings(readings: OcrWord[][]): OcrWord[] {
  const candidates = readings.flatMap((words) => linesOf(words));
  candidates.sort((a, b) => b.score - a.score);
  const taken: { box: Box; words: OcrWord[] }[] = [];
  for (const line of candidates) {
    if (!taken.some((t) => overlap(t.box, line.box) > SAME_LINE)) taken.push(line);
  }
  taken.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
  return taken.flatMap((line, i) => line.words.map((w) => ({ ...w, line: i })));
}

function linesOf(words: OcrWord[]): { box: Box; words: OcrWord[]; score: number }[] {
  const byLine = new Map<number, OcrWord[]>();
  for (const w of words) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  return [...byLine.values()].map((line) => {
    const chars = line.reduce((n, w) => n + w.text.length, 0);
    const score = line.reduce((n, w) => n + w.confidence * w.text.length, 0) / Math.max(1, chars);
    const box: Box = [
      Math.min(...line.map((w) => w.box[0])),
      Math.min(...line.map((w) => w.box[1])),
      Math.max(...line.map((w) => w.box[2])),
      Math.max(...line.map((w) => w.box[3])),
    ];
    return { box, words: line, score };
  });
}

/** Area shared by two boxes over the smaller one's area. */
function overlap(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const area = (r: Box) => Math.max(1, (r[2] - r[0]) * (r[3] - r[1]));
  return (w * h) / Math.min(area(a), area(b));
}
