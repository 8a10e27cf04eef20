import { plainText } from "./inline";
import type { Block, PageModel } from "./types";

// Heading levels across the document. Numbering is the strongest evidence
// ("2.3 Method" is level 2, "Chapter 4" level 1); an unnumbered heading takes
// the level of numbered headings set at its size, or sits above or below
// them by size. A document without numbering ranks its heading sizes. Cover
// pages set in huge type would otherwise push every real section to level 6.

const MAX_LEVEL = 6;
const NUMBERED = /^(?:chapter\s+|part\s+)?(\d+(?:\.\d+)*)\.?\s+\p{L}/iu;

type Heading = Extract<Block, { kind: "heading" }>;

const sizeKey = (h: Heading) => Math.round(h.size * 2) / 2;

function numberedDepth(h: Heading): number | null {
  const m = NUMBERED.exec(plainText(h.spans));
  return m ? Math.min(MAX_LEVEL, m[1].split(".").length) : null;
}

export function assignHeadingLevels(pages: PageModel[]): PageModel[] {
  const headings = pages.flatMap((p) => p.blocks).filter((b): b is Heading => b.kind === "heading");
  const bySize = new Map<number, number>();
  for (const h of headings) {
    const depth = numberedDepth(h);
    if (depth !== null) bySize.set(sizeKey(h), Math.min(bySize.get(sizeKey(h)) ?? MAX_LEVEL, depth));
  }
  // A title set above every numbered heading is level 1; numbered sections sit under it.
  const titled = headings.some((h) => numberedDepth(h) === null && sizeKey(h) > Math.max(...bySize.keys()));
  const shift = titled ? 1 : 0;
  const level = bySize.size ? (h: Heading) => Math.min(MAX_LEVEL, numberedLevel(h, bySize, shift)) : rankLevels(headings);
  // An outline never skips a level going down ("#" then "###"): a heading
  // is one level under the nearest heading before it that ranks above it,
  // so headings of one rank stay at one level.
  const open: number[] = [];
  // A section taken out of a longer document ("5.1 Results" with nothing
  // above it) keeps its depth under an implied title rather than becoming one.
  const ranks = headings.map(level);
  if (ranks.length && ranks[0] >= 2 && !ranks.includes(1)) open.push(1);
  return pages.map((p) => ({
    ...p,
    blocks: p.blocks.map((b) => {
      if (b.kind !== "heading") return b;
      const rank = level(b);
      while (open.length && open[open.length - 1] >= rank) open.pop();
      open.push(rank);
      return { ...b, level: open.length };
    }),
  }));
}

/**
 * An unnumbered heading takes the level of the numbered headings nearest
 * its size ("Contents" set a little smaller than "Chapter 1" is a chapter),
 * sits above them all when larger, or one under the deepest when smaller.
 */
function numberedLevel(h: Heading, bySize: Map<number, number>, shift: number): number {
  const own = numberedDepth(h);
  if (own !== null) return own + shift;
  const sizes = [...bySize.keys()].sort((a, b) => b - a);
  const size = sizeKey(h);
  if (size > sizes[0]) return 1;
  if (size < sizes[sizes.length - 1]) return Math.max(...bySize.values()) + 1 + shift;
  const nearest = sizes.reduce((a, b) => (Math.abs(Math.log(b / size)) < Math.abs(Math.log(a / size)) ? b : a));
  return (bySize.get(nearest) ?? 1) + shift;
}

function rankLevels(headings: Heading[]): (h: Heading) => number {
  const sizes = [...new Set(headings.map(sizeKey))].sort((a, b) => b - a);
  return (h) => Math.min(MAX_LEVEL, 1 + sizes.indexOf(sizeKey(h)));
}
