import { diffArrays, diffWords } from "diff";

// A line-level diff (jsdiff's Myers diff over lines) whose `modified` pairs
// are matched by similarity among all removed and added lines, not just taken
// as adjacent removed and added lines: a paragraph edited and moved still
// pairs with its new self.

/** Lists in the answer are cut here (docs/reference/compare.md); the totals are not. */
export const MAX_LISTED = 200;
/** Lines at least this alike (character trigrams, Dice) count as one line modified rather than one removed and one added. */
export const MODIFIED_AT = 0.5;
/**
 * Myers' diff costs time and memory in the square of the edit distance: past
 * this many edits the two texts are compared as bags of lines instead
 * (every line only in one of them is added or removed; nothing is paired).
 */
const MAX_EDITS = 4000;
/** Pairing compares every removed line with every added one up to this many pairs, then only those at about the same relative place. */
const MAX_PAIRINGS = 40_000;

export interface WordChange {
  type: "added" | "removed";
  text: string;
}

export interface Modified {
  before: string;
  after: string;
  similarity: number;
  changes: WordChange[];
}

export interface Comparison {
  similarity: number;
  added: string[];
  removed: string[];
  modified: Modified[];
  totals: { added: number; removed: number; modified: number };
  exact: boolean;
}

export function compareLines(a: string[], b: string[]): Comparison {
  const hunks = diffArrays(a, b, { maxEditLength: MAX_EDITS });
  if (!hunks) return bagOfLines(a, b);
  // Every line the diff removed or added, in document order; an edited line
  // that also moved lands in another changed region than its old self, so
  // pairs are looked for over the whole document.
  const removedLines: string[] = [];
  const addedLines: string[] = [];
  let unchanged = 0;
  for (const h of hunks) {
    if (h.removed) removedLines.push(...h.value);
    else if (h.added) addedLines.push(...h.value);
    else unchanged += h.value.length;
  }
  const paired = pairBySimilarity(removedLines, addedLines);
  const modified = paired.pairs.map(([i, j, sim]) => ({
    before: removedLines[i],
    after: addedLines[j],
    similarity: round(sim),
    changes: wordChanges(removedLines[i], addedLines[j]),
  }));
  const pairedWeight = paired.pairs.reduce((n, [, , sim]) => n + 2 * sim, 0);
  const removed = paired.unpairedRemoved.map((i) => removedLines[i]);
  const added = paired.unpairedAdded.map((j) => addedLines[j]);
  const total = a.length + b.length;
  return {
    similarity: total === 0 ? 1 : round((2 * unchanged + pairedWeight) / total),
    added,
    removed,
    modified,
    totals: { added: added.length, removed: removed.length, modified: modified.length },
    exact: true,
  };
}

/** Greedy best-first pairing of removed and added lines by similarity. */
function pairBySimilarity(removed: string[], added: string[]) {
  const candidates: [number, number, number][] = [];
  const near = removed.length * added.length > MAX_PAIRINGS;
  for (let i = 0; i < removed.length; i++) {
    // With many changes, compare a line only with those at about the same relative place.
    const centre = Math.round((i / Math.max(1, removed.length)) * added.length);
    const [from, to] = near ? [Math.max(0, centre - 50), Math.min(added.length, centre + 50)] : [0, added.length];
    for (let j = from; j < to; j++) {
      const sim = lineSimilarity(removed[i], added[j]);
      if (sim >= MODIFIED_AT) candidates.push([i, j, sim]);
    }
  }
  candidates.sort((x, y) => y[2] - x[2] || x[0] - y[0]);
  const usedR = new Set<number>();
  const usedA = new Set<number>();
  const pairs: [number, number, number][] = [];
  for (const [i, j, sim] of candidates) {
    if (usedR.has(i) || usedA.has(j)) continue;
    usedR.add(i);
    usedA.add(j);
    pairs.push([i, j, sim]);
  }
  pairs.sort((x, y) => x[0] - y[0]);
  return {
    pairs,
    unpairedRemoved: removed.map((_, i) => i).filter((i) => !usedR.has(i)),
    unpairedAdded: added.map((_, j) => j).filter((j) => !usedA.has(j)),
  };
}

/** Dice coefficient of the two lines' character trigrams (case-insensitive). */
export function lineSimilarity(x: string, y: string): number {
  if (x === y) return 1;
  const grams = (s: string) => {
    const t = ` ${s.toLowerCase()} `;
    const m = new Map<string, number>();
    for (let i = 0; i + 3 <= t.length; i++) m.set(t.slice(i, i + 3), (m.get(t.slice(i, i + 3)) ?? 0) + 1);
    return m;
  };
  const gx = grams(x);
  const gy = grams(y);
  let common = 0;
  let nx = 0;
  let ny = 0;
  for (const n of gx.values()) nx += n;
  for (const n of gy.values()) ny += n;
  for (const [g, n] of gx) common += Math.min(n, gy.get(g) ?? 0);
  return nx + ny === 0 ? 0 : (2 * common) / (nx + ny);
}

function wordChanges(before: string, after: string): WordChange[] {
  return diffWords(before, after)
    .filter((c) => c.added || c.removed)
    .map((c) => ({ type: c.added ? "added" : "removed", text: c.value.trim() }))
    .filter((c): c is WordChange => c.text !== "");
}

/** The fallback for texts too different to diff in bounded time: multiset difference, no order, no pairs. */
function bagOfLines(a: string[], b: string[]): Comparison {
  const count = new Map<string, number>();
  for (const l of b) count.set(l, (count.get(l) ?? 0) + 1);
  const removed: string[] = [];
  let common = 0;
  for (const l of a) {
    const n = count.get(l) ?? 0;
    if (n > 0) {
      count.set(l, n - 1);
      common++;
    } else removed.push(l);
  }
  const added: string[] = [];
  for (const l of b) {
    const n = count.get(l) ?? 0;
    if (n > 0) {
      count.set(l, n - 1);
      added.push(l);
    }
  }
  const total = a.length + b.length;
  return {
    similarity: total === 0 ? 1 : round((2 * common) / total),
    added,
    removed,
    modified: [],
    totals: { added: added.length, removed: removed.length, modified: 0 },
    exact: false,
  };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
