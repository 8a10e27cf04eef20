// quality_score of the text pairs: how much of the source's text the output
// carries. Words are compared as multisets (NFKC, lower case, split on
// anything that is not a letter or digit), and the score is their Dice
// coefficient 2|A∩B| / (|A| + |B|): 1 when both hold the same words as
// often, lower for every word lost or added. Order is not measured: reading
// order is what the layout engines keep by construction, and word loss is
// what a conversion most often gets wrong.

const WORD = /[\p{L}\p{N}]+/gu;

/** Word counts of `text`. */
export function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of text.normalize("NFKC").toLowerCase().match(WORD) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

/** Dice similarity of the two texts' words in [0, 1], rounded to 4 places; 1 when both have no words. */
export function textSimilarity(source: string, output: string): number {
  const a = wordCounts(source);
  const b = wordCounts(output);
  let total = 0;
  let shared = 0;
  for (const [w, n] of a) {
    total += n;
    shared += Math.min(n, b.get(w) ?? 0);
  }
  for (const n of b.values()) total += n;
  if (total === 0) return 1;
  return Math.round(((2 * shared) / total) * 10_000) / 10_000;
}
