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
  return pages.map((p) => ({ ...p, blocks: p.blocks.map((b) => (b.kind === "heading" ? { ...b, level: level(b) } : b)) }));
}

function numberedLevel(h: Heading, bySize: Map<number, number>, shift: number): number {
  const own = numberedDepth(h);
  if (own !== null) return own + shift;
  const sizes = [...bySize.keys()].sort((a, b) => b - a);
  const size = sizeKey(h);
  if (size > sizes[0]) return 1;
  const atOrBelow = sizes.find((s) => s <= size);
  if (atOrBelow !== undefined) return (bySize.get(atOrBelow) ?? 1) + shift;
  return Math.max(...bySize.values()) + 1 + shift;
}

function rankLevels(headings: Heading[]): (h: Heading) => number {
  const sizes = [...new Set(headings.map(sizeKey))].sort((a, b) => b - a);
  return (h) => Math.min(MAX_LEVEL, 1 + sizes.indexOf(sizeKey(h)));
}
