import { foundCount, readingOrder, wordRecall, words } from "../../tools/pdf-to-markdown/quality";

// Scores a Markdown reading of one generated document against its truth
// (generate.mjs): the measures of issue 32, each a count over a count so
// documents and families add up exactly. Pure, so the workerd tests and the
// Node bench score the same way (pdftotext's text too: it simply has no
// headings or pipe tables).

export interface Truth {
  family: string;
  name: string;
  pages: number;
  paragraphs: { text: string; flow: string }[];
  headings: { text: string; level: number }[];
  tables: { rows: string[][]; ruled: boolean }[];
  code: string[][];
  furniture: { text: string; kind: "phrase" | "number" }[];
  /** Bold paragraphs: set as a heading they count as false headings. */
  decoys: string[];
}

export interface Ratio {
  hit: number;
  of: number;
}

export interface Score {
  /** Consecutive paragraphs of one flow whose openings come in the truth's order. */
  order: Ratio;
  /** Paragraphs of 8+ words kept whole and in sequence (PEERS.md's reading order). */
  whole: Ratio;
  headings: Ratio;
  /** Our headings that are no heading of the truth. */
  falseHeadings: Ratio;
  /** Heading pairs whose levels rise, fall or stay as the truth's do. */
  levels: Ratio;
  furniture: Ratio;
  ruledCells: Ratio;
  unruledCells: Ratio;
  code: Ratio;
  words: Ratio;
}

const ratio = (hit = 0, of = 0): Ratio => ({ hit, of });
/** Words a paragraph is found by: enough to span two lines of a narrow column, so reading across columns breaks them. */
const PROBE = 12;

function positions(ws: string[]): Map<string, number[]> {
  const at = new Map<string, number[]>();
  ws.forEach((w, i) => {
    const list = at.get(w);
    if (list) list.push(i);
    else at.set(w, [i]);
  });
  return at;
}

/** Every start of `seq` in `ws`. */
function occurrences(seq: string[], ws: string[], at: Map<string, number[]>): number[] {
  if (!seq.length) return [];
  return (at.get(seq[0]) ?? []).filter((i) => seq.every((w, k) => ws[i + k] === w));
}

function orderOf(truth: Truth, ours: string[], at: Map<string, number[]>): Ratio {
  const flows = new Map<string, number[]>();
  for (const p of truth.paragraphs) {
    const probe = words(p.text).slice(0, PROBE);
    const found = occurrences(probe, ours, at)[0] ?? -1;
    flows.set(p.flow, [...(flows.get(p.flow) ?? []), found]);
  }
  const r = ratio();
  for (const pos of flows.values()) {
    for (let i = 1; i < pos.length; i++) {
      r.of++;
      if (pos[i - 1] >= 0 && pos[i] > pos[i - 1]) r.hit++;
    }
  }
  return r;
}

function wholeOf(truth: Truth, markdown: string): Ratio {
  const r = ratio();
  for (const flow of new Set(truth.paragraphs.map((p) => p.flow))) {
    const paras = truth.paragraphs.filter((p) => p.flow === flow && words(p.text).length >= 8).map((p) => p.text);
    if (!paras.length) continue;
    r.of += paras.length;
    r.hit += Math.round(readingOrder(paras.join("\n\n"), markdown) * paras.length);
  }
  return r;
}

const headingLines = (md: string) =>
  md
    .split("\n")
    .filter((l) => /^#{1,6}\s/.test(l))
    .map((l) => ({ key: words(l.replace(/^#+\s*/, "")).join(" "), level: /^#+/.exec(l)?.[0].length ?? 0 }));

function headingsOf(truth: Truth, markdown: string): Pick<Score, "headings" | "falseHeadings" | "levels"> {
  const ours = headingLines(markdown);
  const want = truth.headings.map((h) => ({ key: words(h.text).join(" "), level: h.level }));
  const keys = new Set(want.map((h) => h.key));
  const matched = want.map((h) => ours.find((o) => o.key === h.key));
  const levels = ratio();
  for (let i = 1; i < want.length; i++) {
    const [a, b] = [matched[i - 1], matched[i]];
    if (!a || !b) continue;
    levels.of++;
    if (Math.sign(want[i].level - want[i - 1].level) === Math.sign(b.level - a.level)) levels.hit++;
  }
  return {
    headings: ratio(matched.filter(Boolean).length, want.length),
    falseHeadings: ratio(ours.filter((o) => !keys.has(o.key)).length, ours.length),
    levels,
  };
}

/**
 * An ordered list's numbers are the HTML's own (<ol> draws them) but no
 * text of the truth: left in a Markdown list marker ("2. Code reduces")
 * they are no page number kept.
 */
const withoutListMarkers = (md: string) =>
  md
    .split("\n")
    .map((l) => l.replace(/^\s*\d+[.)]\s+/, ""))
    .join("\n");

/** Occurrences of `seq` inside any one of `texts` (word lists). */
const countIn = (seq: string[], texts: string[][]) => texts.reduce((n, ws) => n + occurrences(seq, ws, positions(ws)).length, 0);

/**
 * Furniture left in: occurrences in ours beyond those the body text itself
 * holds ("3" in a table), counted block by block on both sides, so a
 * paragraph ending in "page" before the heading "3 Method" keeps no "Page 3".
 */
function furnitureOf(truth: Truth, markdown: string): Ratio {
  const body = [
    ...truth.paragraphs.map((p) => p.text),
    ...truth.headings.map((h) => h.text),
    ...truth.tables.flatMap((t) => t.rows.flat()),
    ...truth.code.flat(),
  ].map((t) => words(t));
  const ours = withoutListMarkers(markdown)
    .split(/\n\s*\n/)
    .map((b) => words(b));
  const groups = new Map<string, number>();
  for (const f of truth.furniture) {
    const key = words(f.text).join(" ");
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  let kept = 0;
  for (const [key, n] of groups) {
    const seq = key.split(" ");
    const extra = countIn(seq, ours) - countIn(seq, body);
    kept += Math.min(n, Math.max(0, extra));
  }
  return ratio(truth.furniture.length - kept, truth.furniture.length);
}

/** Our pipe tables as rows of cell keys. */
export function pipeRows(md: string): string[][][] {
  const tables: string[][][] = [];
  let current: string[][] | null = null;
  for (const line of md.split("\n")) {
    if (/^\s*\|/.test(line)) {
      current ??= [];
      if (!/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*$/.test(line))
        current.push(
          line
            .trim()
            .replace(/^\||\|$/g, "")
            .split(/(?<!\\)\|/)
            .map((c) => words(c).join(" ")),
        );
    } else if (current) {
      tables.push(current);
      current = null;
    }
  }
  if (current) tables.push(current);
  return tables;
}

/** Truth cells found in the one pipe table of ours that holds most of them, as a multiset. */
function cellsOf(truth: Truth, markdown: string, ruled: boolean): Ratio {
  const ours = pipeRows(markdown).map((t) => t.flat().filter(Boolean));
  const r = ratio();
  for (const t of truth.tables.filter((x) => x.ruled === ruled)) {
    const want = t.rows
      .flat()
      .map((c) => words(c).join(" "))
      .filter(Boolean);
    let best = 0;
    for (const cells of ours) best = Math.max(best, foundCount(want, cells));
    r.hit += best;
    r.of += want.length;
  }
  return r;
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

function codeOf(truth: Truth, markdown: string): Ratio {
  const fenced = new Set([...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].flatMap((m) => m[1].split("\n").map(squash)));
  const lines = truth.code.flat().map(squash).filter(Boolean);
  return ratio(lines.filter((l) => fenced.has(l)).length, lines.length);
}

export function truthText(truth: Truth): string {
  return [
    ...truth.headings.map((h) => h.text),
    ...truth.paragraphs.map((p) => p.text),
    ...truth.tables.flatMap((t) => t.rows.flat()),
    ...truth.code.flat(),
  ].join("\n");
}

export function score(truth: Truth, markdown: string): Score {
  const ours = words(markdown);
  const at = positions(ours);
  const all = truthText(truth);
  const total = words(all).length;
  return {
    order: orderOf(truth, ours, at),
    whole: wholeOf(truth, markdown),
    ...headingsOf(truth, markdown),
    furniture: furnitureOf(truth, markdown),
    ruledCells: cellsOf(truth, markdown, true),
    unruledCells: cellsOf(truth, markdown, false),
    code: codeOf(truth, markdown),
    words: ratio(Math.round(wordRecall(all, markdown) * total), total),
  };
}

/** Scores summed measure by measure (a family's documents, the whole set). */
export function sum(scores: Score[]): Score {
  const out = score({ family: "", name: "", pages: 0, paragraphs: [], headings: [], tables: [], code: [], furniture: [], decoys: [] }, "");
  for (const s of scores) {
    for (const k of Object.keys(out) as (keyof Score)[]) {
      out[k].hit += s[k].hit;
      out[k].of += s[k].of;
    }
  }
  return out;
}

/** 0..1, or null when the measure had nothing to count. */
export const share = (r: Ratio): number | null => (r.of ? r.hit / r.of : null);

/** One line per family: "order 0.97 whole 0.95 headings 0.98 false 0.02 ...", measures with nothing to count left out. */
export function describe(s: Score): string {
  const parts: [string, Ratio][] = [
    ["order", s.order],
    ["whole", s.whole],
    ["headings", s.headings],
    ["false", s.falseHeadings],
    ["levels", s.levels],
    ["furniture out", s.furniture],
    ["ruled cells", s.ruledCells],
    ["unruled cells", s.unruledCells],
    ["code", s.code],
    ["words", s.words],
  ];
  return parts
    .filter(([, r]) => r.of > 0)
    .map(([n, r]) => `${n} ${(r.hit / r.of).toFixed(n === "words" ? 3 : 2)}`)
    .join(", ");
}
