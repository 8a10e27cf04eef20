import type { Rect, TextLine } from "./types";

// A scan with a text layer nobody can read: many scanners and old OCR tools
// lay invisible text over the page picture, and some of it is garbage
// (wrong encoding, a failed recognition). Such a page is read again by OCR.

/** An image covering this share of the page is the page itself (a scan). */
const FULL_PAGE = 0.85;
/** Below this share of word-like words, a text layer is junk. */
const MIN_WORDLIKE = 0.5;
/** Fewer words than this are too few to judge (a page number, a stamp). */
const MIN_WORDS = 5;

const LETTERS = /^\p{L}+$/u;
const VOWEL = /[aeiouyàâäáãåæéèêëíìîïóòôöõøúùûüýÿœ]/i;
const NUMBER = /^[-+]?[$€£]?\d[\d.,:/%-]*$/u;

/** True when one image covers most of the page. */
export function coversPage(images: Rect[], width: number, height: number): boolean {
  return images.some((b) => ((b[2] - b[0]) * (b[3] - b[1])) / Math.max(width * height, 1) >= FULL_PAGE);
}

/**
 * True when the text is mostly not words: few tokens are a run of letters
 * with a vowel in plain, capitalised or upper case, or a number.
 */
export function isJunkText(lines: TextLine[]): boolean {
  const words = lines.flatMap((l) => l.words.map((w) => w.text));
  if (words.length < MIN_WORDS) return false;
  return words.filter(wordLike).length / words.length < MIN_WORDLIKE;
}

/** A run of letters with a vowel in plain, capitalised or upper case (or short), or a number. */
export function wordLike(raw: string): boolean {
  const w = raw.replace(/^[("'“‘[]+|[)"'”’\].,;:!?]+$/gu, "");
  if (NUMBER.test(w)) return true;
  if (!LETTERS.test(w) || w.length > 24) return false;
  const caseOk = w === w.toLowerCase() || w === w.toUpperCase() || w.slice(1) === w.slice(1).toLowerCase();
  return caseOk && (VOWEL.test(w) || w.length <= 2);
}
