// The measures of ../shared/PEERS.md ("Structure of PDF → Markdown"), so our
// figures are comparable with the peers' there: word recall, reading order,
// tables and headings of our Markdown against a ground-truth Markdown.

export const words = (text: string): string[] =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** How many of `want` (with multiplicity) are in `have`: each item of `have` counts once. */
export function foundCount(want: readonly string[], have: readonly string[]): number {
  const left = new Map<string, number>();
  for (const h of have) left.set(h, (left.get(h) ?? 0) + 1);
  let found = 0;
  for (const w of want) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      found++;
      left.set(w, n - 1);
    }
  }
  return found;
}

/** Share of the truth's words (with multiplicity) found in ours. */
export function wordRecall(truth: string, ours: string): number {
  const want = words(truth);
  return want.length ? foundCount(want, words(ours)) / want.length : 1;
}

const isTableLine = (l: string) => /^\s*\|/.test(l);
const isHeadingLine = (l: string) => /^#{1,6}\s/.test(l);
// List numbers and bullets are ignored (PEERS.md).
const stripMarker = (l: string) => l.replace(/^\s*([-*+•]|\d+[.)])\s+/, "");

function paragraphs(md: string): string[] {
  return md
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split("\n")
        .filter((l) => !isTableLine(l) && !isHeadingLine(l))
        .map(stripMarker)
        .join(" "),
    )
    .filter((p) => words(p).length >= 8);
}

const grams = (ws: string[]) => ws.slice(0, Math.max(0, ws.length - 3)).map((_, i) => ws.slice(i, i + 4).join(" "));

/**
 * Share of truth paragraphs kept (90% of their 4-grams present) and in the
 * truth's order. A paragraph is located at its first 4-gram's earliest
 * occurrence after the previous paragraph's, so repeated boilerplate
 * paragraphs are matched in sequence, not all to the first copy.
 */
export function readingOrder(truth: string, ours: string): number {
  const ourWords = words(ours.split("\n").map(stripMarker).join("\n"));
  const index = new Map<string, number[]>();
  grams(ourWords).forEach((g, i) => index.set(g, [...(index.get(g) ?? []), i]));
  const paras = paragraphs(truth);
  if (!paras.length) return 1;
  const positions: number[] = [];
  let cursor = -1;
  for (const p of paras) {
    const gs = grams(words(p));
    const hits = gs.filter((g) => index.has(g));
    if (!gs.length || hits.length / gs.length < 0.9) continue;
    const at = index.get(hits[0]) ?? [];
    const pos = at.find((i) => i > cursor) ?? at[0];
    positions.push(pos);
    cursor = Math.max(cursor, pos);
  }
  return longestIncreasing(positions) / paras.length;
}

function longestIncreasing(xs: number[]): number {
  const tails: number[] = [];
  for (const x of xs) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = x;
  }
  return tails.length;
}

const cellKey = (c: string) => words(c).join(" ");

export function pipeTables(md: string): string[][] {
  const tables: string[][] = [];
  let current: string[] | null = null;
  for (const line of md.split("\n")) {
    if (isTableLine(line)) {
      current ??= [];
      if (!/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*$/.test(line))
        current.push(
          ...line
            .split(/(?<!\\)\|/)
            .map(cellKey)
            .filter(Boolean),
        );
    } else if (current) {
      tables.push(current);
      current = null;
    }
  }
  if (current) tables.push(current);
  return tables;
}

/** Truth tables that come back as one of our pipe tables holding 70% of their non-empty cells. */
export function tablesFound(truth: string, ours: string): { found: number; total: number } {
  const want = pipeTables(truth);
  const have = pipeTables(ours).map((t) => new Set(t));
  const found = want.filter((cells) => have.some((h) => cells.filter((c) => h.has(c)).length / cells.length >= 0.7)).length;
  return { found, total: want.length };
}

function codeBlocks(md: string): string[] {
  return [...md.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => ` ${words(m[1]).join(" ")} `);
}

/**
 * Truth tables we did not give as a pipe table but kept whole in a fenced
 * code block: docling tables a code listing by its aligned columns
 * ("SELECT | function_id, ..."), where a listing is what a reader wants.
 * Counted apart from tablesFound, never instead of it.
 */
export function tablesAsCode(truth: string, ours: string): number {
  const have = pipeTables(ours).map((t) => new Set(t));
  const code = codeBlocks(ours);
  return pipeTables(truth).filter(
    (cells) =>
      !have.some((h) => cells.filter((c) => h.has(c)).length / cells.length >= 0.7) &&
      code.some((block) => cells.every((c) => c.split(" ").every((w) => block.includes(` ${w} `)))),
  ).length;
}

const headingLines = (md: string) =>
  md
    .split("\n")
    .filter(isHeadingLine)
    .map((l) => ({ words: words(l.replace(/^#+\s*/, "")), level: /^#+/.exec(l)?.[0].length ?? 0 }));

const sameBag = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
const runOf = (inner: string[], outer: string[]) => inner.length > 0 && ` ${outer.join(" ")} `.includes(` ${inner.join(" ")} `);
const prefixOf = (head: string[], text: string[]) => head.length >= 3 && text.slice(0, head.length).join(" ") === head.join(" ");

/**
 * Whether our heading is the truth's heading. docling's Markdown (the truth
 * here) moves a section number set beside its title after it ("들어가며 1"),
 * runs a heading into the sentence after it, and splits a heading over two
 * lines into two: the same words in another order, our heading starting the
 * truth's (three words or more), or the truth's words inside ours count.
 */
export const sameHeading = (truth: string[], ours: string[]) =>
  truth.join(" ") === ours.join(" ") || sameBag(truth, ours) || prefixOf(ours, truth) || runOf(truth, ours);

/**
 * Truth headings we also set as headings, with the level we gave each. The
 * truth (docling) writes every heading at one level, so levels are judged on
 * our own outline: see headingJumps.
 */
export function headingsFound(truth: string, ours: string): { found: number; total: number; levels: number[] } {
  const have = headingLines(ours);
  const want = headingLines(truth);
  const levels = want.flatMap((h) => {
    const match = have.find((o) => sameHeading(h.words, o.words));
    return match ? [match.level] : [];
  });
  return { found: levels.length, total: want.length, levels };
}

/**
 * Headings that sit more than one level below the heading before them
 * ("#" then "###"), the outline break markdownlint reports as MD001; the
 * first heading may open at level 1 or 2.
 */
export function headingJumps(ours: string): number {
  let previous = 1;
  let jumps = 0;
  for (const { level } of headingLines(ours)) {
    if (level > previous + 1) jumps++;
    previous = level;
  }
  return jumps;
}

export interface Quality {
  recall: number;
  order: number;
  tables: { found: number; total: number; asCode: number };
  headings: { found: number; total: number; levels: number[] };
  /** Headings more than one level under the one before (0 in a well-formed outline). */
  jumps: number;
}

export function measure(truth: string, ours: string): Quality {
  return {
    recall: wordRecall(truth, ours),
    order: readingOrder(truth, ours),
    tables: { ...tablesFound(truth, ours), asCode: tablesAsCode(truth, ours) },
    headings: headingsFound(truth, ours),
    jumps: headingJumps(ours),
  };
}
