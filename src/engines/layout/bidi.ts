import type { Glyph } from "./geometry";

// Right-to-left text (Arabic, Hebrew) as MuPDF reports it.

/**
 * Arabic fonts draw lam-alef as one glyph; MuPDF then reports the alef
 * first, with no width, and the lam after it ("ال" for "لا"). Logical order
 * puts the lam first. An alef drawn just before the ligature ("الا" of
 * "الاقتصاد") ends where the ligature's alef is reported, and MuPDF drops
 * it as a copy of that glyph (its test for text drawn twice for a bold
 * look): the space it took, between the ligature and the glyph read before
 * it, gives it back.
 */
export function fixLamAlef(line: Glyph[]): Glyph[] {
  // Where a line draws no spaces, a gap between two letters may be a word
  // gap; where it draws them, a gap left empty is a glyph MuPDF dropped.
  const drawsSpaces = line.some((g) => g.c === " ");
  for (let i = 0; i + 1 < line.length; i++) {
    const [a, b] = [line[i], line[i + 1]];
    if (/[\u0622\u0623\u0625\u0627]/.test(a.c) && b.c === "\u0644" && a.box[2] - a.box[0] < 0.05) {
      [line[i], line[i + 1]] = [b, a];
      const before = line[i - 1];
      const gap = before ? before.box[0] - a.box[2] : 0;
      if (before && (drawsSpaces || before.c.trim() === "") && gap > 0.15 * a.size && gap < 0.6 * a.size) {
        line.splice(i, 0, { ...a, box: [a.box[2], a.box[1], a.box[2] + gap, a.box[3]] });
        i++;
      }
      i++;
    }
  }
  return line;
}

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/g;
const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
const LTR = /[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]/g;

/** Text is right-to-left when most of its letters are Hebrew or Arabic. */
export function isRtlText(text: string): boolean {
  return (text.match(RTL)?.length ?? 0) > (text.match(LTR)?.length ?? 0);
}

/**
 * Where right-to-left and left-to-right runs meet, logical neighbours sit
 * apart on the page and the PDF often has no space glyph between them.
 */
export function bidiGap(a: Glyph, b: Glyph): boolean {
  if (!a.c.trim() || !b.c.trim() || !(RTL_CHAR.test(a.c) || RTL_CHAR.test(b.c))) return false;
  // Zero-width parts of a ligature sit at its edge, not at a word gap.
  if (a.box[2] - a.box[0] < 0.05 || b.box[2] - b.box[0] < 0.05) return false;
  const apart = Math.max(b.box[0] - a.box[2], a.box[0] - b.box[2]);
  return apart > 0.2 * Math.max(a.size, b.size);
}
