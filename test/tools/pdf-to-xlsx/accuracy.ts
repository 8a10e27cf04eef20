// Cell accuracy of an extracted table against a Camelot or Tabula expected
// CSV: the share of the truth's non-empty cells whose text (whitespace
// collapsed) sits at the same row and column of ours, at the best alignment
// of the two grids (a table found with an extra header row or a leading
// empty column is shifted, not failed; Camelot counts title lines above a
// table as rows, up to six here).

// Camelot writes Arabic as it is drawn: presentation forms in visual order,
// left to right ("ﻂﻄﻗ 47 ﻱﺪﻨﻋ"). Unicode, docling and we keep logical order
// ("عندي 47 قطط"), so the truth is turned to logical order before cells are
// compared: a right-to-left cell is reversed with its Latin and digit runs
// kept as they read; in a left-to-right cell only the Arabic runs turn. A
// simplified bidi reordering, enough for one line of Arabic with numbers
// and English words; text without presentation forms is left alone.
const VISUAL_ARABIC = /[\ufb50-\ufdff\ufe70-\ufeff]/;
const RTL_RUN = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff](?:[\s\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff؟،]*[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff؟،])?/g;
const LTR_RUN = /[A-Za-z0-9](?:[\sA-Za-z0-9.,'-]*[A-Za-z0-9])?/g;
const reverse = (s: string) => [...s].reverse().join("");

export function logical(s: string): string {
  if (!VISUAL_ARABIC.test(s)) return s;
  const rtl = (s.match(/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/g)?.length ?? 0) > (s.match(/[A-Za-z]/g)?.length ?? 0);
  return rtl ? reverse(s).replace(LTR_RUN, reverse) : s.replace(RTL_RUN, reverse);
}

// Dot leaders ("Total . . . .") are layout: Camelot keeps them, with line
// breaks and spacing of its own, and we drop them; a label is compared
// without them.
const norm = (s: string) =>
  logical(s)
    .normalize("NFKC")
    .replace(/\s+/g, "")
    .replace(/\.{2,}$/, "")
    .toLowerCase();

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
