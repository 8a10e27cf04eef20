// Cell accuracy of an extracted table against a Camelot or Tabula expected
// CSV: the share of the truth's non-empty cells whose text (whitespace
// collapsed) sits at the same row and column of ours, at the best alignment
// of the two grids (a table found with an extra header row or a leading
// empty column is shifted, not failed; Camelot counts title lines above a
// table as rows, up to six here).

// Camelot writes Arabic as it is drawn: presentation forms in visual order.
// Reversed, they read in logical order, as we (and Unicode) write it.
const logical = (s: string) => (/[\ufb50-\ufdff\ufe70-\ufeff]/.test(s) ? [...s].reverse().join("") : s);
const norm = (s: string) => logical(s).normalize("NFKC").replace(/\s+/g, "").toLowerCase();

export function cellAccuracy(truth: string[][], ours: string[][]): number {
  const want = truth.flatMap((r, i) => r.map((t, j) => [i, j, norm(t)] as const)).filter(([, , t]) => t !== "");
  if (!want.length) return 1;
  let best = 0;
  for (let dr = -6; dr <= 6; dr++) {
    for (let dc = -3; dc <= 3; dc++) {
      let hits = 0;
      for (const [i, j, t] of want) if (norm(ours[i + dr]?.[j + dc] ?? "") === t) hits++;
      best = Math.max(best, hits);
    }
  }
  return best / want.length;
}
