// Whether a rewrite kept the content: LLM cleanup may fix wraps, hyphens,
// headings and tables, never drop or invent text. Words are compared as a
// multiset (case-folded letters and digits); tables by their row count.

/** Share of the original's words the rewrite must keep. */
export const MIN_RECALL = 0.9;
/** Share of the rewrite's words that must come from the original. */
export const MIN_PRECISION = 0.85;
/** A rewrite may grow by this factor at most (markup added around the same words). */
export const MAX_GROWTH = 1.5;

export interface GuardVerdict {
  ok: boolean;
  recall: number;
  precision: number;
  reason?: string;
}

export function wordsOf(text: string): string[] {
  return (text
    .toLowerCase()
    .normalize("NFKC")
    .match(/[\p{L}\p{N}]+/gu) ?? []) as string[];
}

const tableRows = (md: string) => md.split("\n").filter((l) => /^\s*\|.*\|\s*$/.test(l)).length;

export function guardRewrite(original: string, rewrite: string): GuardVerdict {
  const before = wordsOf(original);
  const after = wordsOf(rewrite);
  const pool = new Map<string, number>();
  for (const w of before) pool.set(w, (pool.get(w) ?? 0) + 1);
  let kept = 0;
  for (const w of after) {
    const n = pool.get(w) ?? 0;
    if (n > 0) {
      kept++;
      pool.set(w, n - 1);
    }
  }
  const recall = before.length ? kept / before.length : 1;
  const precision = after.length ? kept / after.length : before.length ? 0 : 1;
  const verdict = { recall, precision };
  if (recall < MIN_RECALL) return { ok: false, ...verdict, reason: `kept ${(recall * 100).toFixed(0)}% of the words` };
  if (precision < MIN_PRECISION) return { ok: false, ...verdict, reason: `${((1 - precision) * 100).toFixed(0)}% of its words are not in the original` };
  if (rewrite.length > original.length * MAX_GROWTH + 200) return { ok: false, ...verdict, reason: "grew beyond the original" };
  if (tableRows(rewrite) < tableRows(original)) return { ok: false, ...verdict, reason: "lost table rows" };
  return { ok: true, ...verdict };
}
