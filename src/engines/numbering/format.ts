// Page-number format strings (docs/reference/pdf-stamps.md, Page numbers): literal text around the
// tokens {n}, {roman}, {ROMAN}, {alpha}, {ALPHA} and {total}. Pure functions.

export const FORMAT_TOKENS = ["n", "roman", "ROMAN", "alpha", "ALPHA", "total"] as const;
export type FormatToken = (typeof FORMAT_TOKENS)[number];

export type FormatPart = { literal: string } | { token: FormatToken };

/** Largest number written in Roman numerals (no overlined thousands). */
export const ROMAN_MAX = 3999;

export class FormatError extends Error {}

/** Splits a format string; an unknown `{word}` is an error (a typo like {N}). */
export function parseFormat(fmt: string): FormatPart[] {
  const parts: FormatPart[] = [];
  let last = 0;
  for (const m of fmt.matchAll(/\{([A-Za-z]+)\}/g)) {
    const name = m[1];
    if (!(FORMAT_TOKENS as readonly string[]).includes(name)) {
      throw new FormatError(`Unknown token {${name}} in fmt; use ${FORMAT_TOKENS.map((t) => `{${t}}`).join(", ")}.`);
    }
    if (m.index > last) parts.push({ literal: fmt.slice(last, m.index) });
    parts.push({ token: name as FormatToken });
    last = m.index + m[0].length;
  }
  if (last < fmt.length) parts.push({ literal: fmt.slice(last) });
  return parts;
}

const ROMAN: readonly [number, string][] = [
  [1000, "m"],
  [900, "cm"],
  [500, "d"],
  [400, "cd"],
  [100, "c"],
  [90, "xc"],
  [50, "l"],
  [40, "xl"],
  [10, "x"],
  [9, "ix"],
  [5, "v"],
  [4, "iv"],
  [1, "i"],
];

/** Lower-case Roman numerals for 1..3999. */
export function toRoman(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > ROMAN_MAX) throw new FormatError(`${n} cannot be written in Roman numerals (1 to ${ROMAN_MAX}).`);
  let out = "";
  let rest = n;
  for (const [value, digits] of ROMAN) {
    while (rest >= value) {
      out += digits;
      rest -= value;
    }
  }
  return out;
}

/**
 * Lower-case letters as spreadsheet columns (bijective base 26): a..z, aa,
 * ab, ..., zz, aaa. Any positive number gets a short, unique label.
 */
export function toAlpha(n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new FormatError(`${n} cannot be written as letters (1 or more).`);
  let out = "";
  for (let rest = n; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    out = String.fromCharCode(97 + ((rest - 1) % 26)) + out;
  }
  return out;
}

export function renderLabel(parts: readonly FormatPart[], n: number, total: number): string {
  return parts
    .map((p) => {
      if ("literal" in p) return p.literal;
      switch (p.token) {
        case "n":
          return String(n);
        case "roman":
          return toRoman(n);
        case "ROMAN":
          return toRoman(n).toUpperCase();
        case "alpha":
          return toAlpha(n);
        case "ALPHA":
          return toAlpha(n).toUpperCase();
        case "total":
          return String(total);
      }
    })
    .join("");
}

/**
 * Labels for `count` numbered pages starting at `start`; throws FormatError
 * when a number cannot be written in the requested style.
 */
export function pageLabels(fmt: string, start: number, count: number): string[] {
  const parts = parseFormat(fmt);
  const labels: string[] = [];
  for (let i = 0; i < count; i++) labels.push(renderLabel(parts, start + i, count));
  return labels;
}
