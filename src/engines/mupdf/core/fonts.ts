import arabicFontData from "../../../../assets/fonts/NotoSansArabic-Subset.ttf";
import { outsideCalls } from "./lifetime";
import type { Mupdf } from "./loader";

// MuPDF's WASM build has Base-14 (Latin, Greek, Cyrillic) and Droid Sans
// Fallback (CJK) built in but no Arabic font; its HTML engine asks the load
// font hook by script name, so the shipped Noto Sans Arabic subset answers
// for "Arabic". Installed once per MuPDF instance, made outside the call
// that first needs it so the end of that call does not destroy it.
let installedFor: Mupdf | undefined;

export function ensureStampFonts(mupdf: Mupdf): void {
  if (installedFor === mupdf) return;
  const arabic = outsideCalls(() => new mupdf.Font("Noto Sans Arabic", new Uint8Array(arabicFontData)));
  mupdf.installLoadFontFunction((_name, script) => (script === "Arabic" ? arabic : null));
  installedFor = mupdf;
}

// Marks, joiners, direction marks and spaces draw no glyph of their own.
const NO_GLYPH = /[\p{M}\p{Cf}\p{Cc}\p{Zs}\p{Zl}\p{Zp}]/u;

/** Whether `font` (the one the layout engine picked) has a glyph for `c`. */
export function drawable(font: { encodeCharacter(uni: number): number }, c: string): boolean {
  return NO_GLYPH.test(c) || font.encodeCharacter(c.codePointAt(0) ?? 0) > 0;
}

export const codePoints = (chars: Iterable<string>): string =>
  [...chars].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`).join(", ");
