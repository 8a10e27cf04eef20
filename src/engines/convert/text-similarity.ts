// quality_score of the text pairs: how much of the source's text the output
// carries. Words are compared as multisets (NFKC, lower case, split on
// anything that is not a letter or digit), and the score is their Dice
// coefficient 2|A∩B| / (|A| + |B|): 1 when both hold the same words as
// often, lower for every word lost or added. Order is not measured: reading
// order is what the layout engines keep by construction, and word loss is
// what a conversion most often gets wrong.
//
// Memory: words are read one match at a time (an array of every word of a
// 2,000-page text is tens of MB), and past EXACT_CHARS the counts go into a
// fixed table of hashed buckets instead of a Map keyed by word (a text of
// numbered lines has as many distinct words as lines). A collision can only
// make two different words count as shared, so the hashed score errs high,
// by little: 2^20 buckets for at most a few million words.

const WORD = /[\p{L}\p{N}]+/gu;

/** Texts up to this many characters together are counted exactly. */
const EXACT_CHARS = 2_000_000;
const BUCKETS = 1 << 20;

const words = (text: string) => text.normalize("NFKC").toLowerCase().matchAll(WORD);

/** Word counts of `text`. */
export function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [w] of words(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

/** FNV-1a over the word's UTF-16 units. */
function bucketOf(w: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
  return (h >>> 0) & (BUCKETS - 1);
}

function hashedCounts(text: string): { counts: Uint32Array; total: number } {
  const counts = new Uint32Array(BUCKETS);
  let total = 0;
  for (const [w] of words(text)) {
    counts[bucketOf(w)]++;
    total++;
  }
  return { counts, total };
}

const rounded = (shared: number, total: number) => (total === 0 ? 1 : Math.round(((2 * shared) / total) * 10_000) / 10_000);

/** Dice similarity of the two texts' words in [0, 1], rounded to 4 places; 1 when both have no words. */
export function textSimilarity(source: string, output: string): number {
  if (source.length + output.length > EXACT_CHARS) {
    const a = hashedCounts(source);
    const b = hashedCounts(output);
    let shared = 0;
    for (let i = 0; i < BUCKETS; i++) shared += Math.min(a.counts[i], b.counts[i]);
    return rounded(shared, a.total + b.total);
  }
  const a = wordCounts(source);
  const b = wordCounts(output);
  let total = 0;
  let shared = 0;
  for (const [w, n] of a) {
    total += n;
    shared += Math.min(n, b.get(w) ?? 0);
  }
  for (const n of b.values()) total += n;
  return rounded(shared, total);
}
