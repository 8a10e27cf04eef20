// Cell accuracy of an extracted table against a Camelot or Tabula expected
// CSV: the share of the truth's non-empty cells whose text (whitespace
// collapsed) sits at the same row and column of ours, at the best alignment
// of the two grids (a table found with an extra header row or a leading
// empty column is shifted, not failed; Camelot counts title lines above a
// table as rows, up to six here).

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

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
