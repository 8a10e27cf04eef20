import { ibanMod97Valid } from "./checksums";
import type { Span } from "./entity-types";
import { IBAN_LENGTHS } from "./iban-lengths";

// Detectors for the pattern-based types: IBAN, PAN, e-mail, IPv4, phones.

function* spans(text: string, re: RegExp): Generator<Span & { text: string }> {
  for (const m of text.matchAll(re)) yield { start: m.index, end: m.index + m[0].length, text: m[0] };
}

// Country code + check digits, then characters optionally split by single
// spaces or dashes ("AL47 2121 ...", "AL47-2121-..."); slashes are not IBAN
// separators.
const IBAN_START = /(?<![\w])([A-Z]{2})(\d{2})/g;

/**
 * Strings with an IBAN's shape: a registry country code, check digits and
 * exactly the registry length, ending at a word boundary. `valid` is the
 * ISO 7064 mod-97 verdict.
 */
export function findIbanShapes(text: string): (Span & { valid: boolean })[] {
  const out: (Span & { valid: boolean })[] = [];
  for (const m of text.matchAll(IBAN_START)) {
    const length = IBAN_LENGTHS[m[1]];
    if (!length) continue;
    const end = readIban(text, m.index, length);
    if (end < 0) continue;
    const iban = text.slice(m.index, end).replace(/[ -]/g, "");
    out.push({ start: m.index, end, valid: ibanMod97Valid(iban) });
  }
  return out;
}

/** IBAN: registry length for the country, then ISO 7064 mod-97. */
export function findIbans(text: string): Span[] {
  return findIbanShapes(text)
    .filter((s) => s.valid)
    .map(({ start, end }) => ({ start, end }));
}

/** Consumes `length` alphanumerics from `start`; answers the end offset or -1. */
function readIban(text: string, start: number, length: number): number {
  let count = 0;
  let i = start;
  while (i < text.length && count < length) {
    const ch = text[i];
    if (/[A-Z0-9]/.test(ch)) {
      count++;
      i++;
    } else if ((ch === " " || ch === "-") && count >= 4 && /[A-Z0-9]/.test(text[i + 1] ?? "")) {
      i++;
    } else {
      break;
    }
  }
  if (count < length) return -1;
  // The IBAN must end at a word boundary, not in the middle of a longer token.
  return /[A-Za-z0-9]/.test(text[i] ?? "") ? -1 : i;
}

/** PAN (India): five letters, four digits, one letter (AAAAA9999A). */
const PAN = /(?<![A-Za-z0-9])[A-Z]{5}\d{4}[A-Z](?![A-Za-z0-9])/g;

export function findPan(text: string): Span[] {
  return [...spans(text, PAN)];
}

// Local part, then dot-separated labels ending in an alphabetic or punycode TLD.
const EMAIL =
  /(?<![\w.+%-])[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{2,59})(?![\w-]|\.[A-Za-z0-9])/g;

export function findEmails(text: string): Span[] {
  return [...spans(text, EMAIL)];
}

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`(?<![\\w.])${OCTET}(?:\\.${OCTET}){3}(?![\\w]|\\.\\d)`, "g");

export function findIpv4(text: string): Span[] {
  return [...spans(text, IPV4)];
}

// International: "+" and a country code, then digit groups (E.164 allows 8
// to 15 digits in all). US: (NXX) NXX-XXXX and NXX-NXX-XXXX with N = 2..9.
// National with a trunk 0 and at least one separator: 09-7625400,
// 090-1234-5678. Bare digit runs are not phones: they are order numbers,
// amounts and ids far more often.
const PHONE_INTL = /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,5}\)?){1,6}(?!\d)/g;
const PHONE_US = /(?<![\w(+.-])(?:\+?1[ .-]?)?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-])[2-9]\d{2}[ .-]\d{4}(?![\w]|[.-]\d)/g;
const PHONE_NATIONAL = /(?<![\w+.-])0\d{1,4}[ -]\d{3,8}(?:[ -]\d{3,4})?(?![\w]|[ -]\d)/g;
// Mobile numbers written without a country code, in the one shape whose
// prefix makes them unmistakable: China's 11 digits, 1 then a carrier block
// (13x-19x), bare or grouped 3-4-4 (13812345678, 138 1234 5678).
const PHONE_CN_MOBILE = /(?<![\w+.-])1(?:3\d|4[5-9]|5[0-35-9]|6[25-7]|7[0-8]|8\d|9\d)(?:[ -]?\d{4}){2}(?![\w]|[ -]\d)/g;

export function findPhones(text: string): Span[] {
  const out: Span[] = [];
  for (const m of spans(text, PHONE_INTL)) {
    const n = m.text.replace(/\D/g, "").length;
    if (n >= 8 && n <= 15) out.push(trimParen(m));
  }
  for (const m of spans(text, PHONE_US)) out.push(m);
  for (const m of spans(text, PHONE_CN_MOBILE)) out.push(m);
  for (const m of spans(text, PHONE_NATIONAL)) {
    const n = m.text.replace(/\D/g, "").length;
    if (n >= 9 && n <= 12) out.push(m);
  }
  return out;
}

/** A trailing ")" with no "(" in the match belongs to the surrounding text. */
function trimParen(m: Span & { text: string }): Span {
  return m.text.endsWith(")") && !m.text.includes("(") ? { start: m.start, end: m.end - 1 } : m;
}
