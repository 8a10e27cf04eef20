import { luhnValid, verhoeffValid } from "./checksums";
import type { Span } from "./entity-types";

// Detectors for the digit-based identifiers: cards, Aadhaar, SSN and ITIN.
// Each returns spans whose digits pass the identifier's own validity rules.

const digitsOf = (s: string): string => s.replace(/\D/g, "");

function* spans(text: string, re: RegExp): Generator<Span & { text: string }> {
  for (const m of text.matchAll(re)) yield { start: m.index, end: m.index + m[0].length, text: m[0] };
}

// Digit groups joined by single spaces or dashes: "4012 8888 8888 1881". A
// run glued to an earlier token that ends in a digit ("DE89 3704 ...") is
// the tail of an IBAN or similar code, not a number of its own.
const DIGIT_RUN = /(?<![\w.]|\d[ -])\d+(?:[ -]\d+)*(?![\w])/g;

/**
 * Payment cards: 13 to 19 digits, Luhn-checked. A run of groups may hold
 * several numbers ("4111... 4012-..."), so each start group takes the longest
 * valid card it can. 13 digits starting with 1 are refused: that is a
 * millisecond Unix timestamp, not a card (Presidio does the same).
 */
export function findCreditCards(text: string): Span[] {
  const out: Span[] = [];
  for (const run of spans(text, DIGIT_RUN)) {
    const groups = [...run.text.matchAll(/\d+/g)].map((g) => ({ start: run.start + g.index, end: run.start + g.index + g[0].length, digits: g[0] }));
    for (let i = 0; i < groups.length; ) {
      let best = -1;
      let digits = "";
      for (let j = i; j < groups.length && digits.length + groups[j].digits.length <= 19; j++) {
        digits += groups[j].digits;
        if (isCardNumber(digits)) best = j;
      }
      if (best < 0) {
        i++;
        continue;
      }
      out.push({ start: groups[i].start, end: groups[best].end });
      i = best + 1;
    }
  }
  return out;
}

function isCardNumber(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  if (!/^[1-6]/.test(digits)) return false;
  if (digits.length === 13 && digits.startsWith("1")) return false;
  return luhnValid(digits);
}

// Three groups of four with one consistent separator (or none), not glued to
// further digit groups (that would be part of a longer number).
const AADHAAR = /(?<![\w.]|\d[ :-])\d{4}([ :-]?)\d{4}\1\d{4}(?![\w]|[ :-]\d)/g;

/** Aadhaar: 12 digits, never starting with 0 or 1, Verhoeff-checked. */
export function findAadhaar(text: string): Span[] {
  const out: Span[] = [];
  for (const m of spans(text, AADHAAR)) {
    const d = digitsOf(m.text);
    if (/^[2-9]/.test(d) && verhoeffValid(d)) out.push(m);
  }
  return out;
}

// 3-2-4 digits with any separator people type between the groups (dash,
// en dash, dot, space), mixed or left out: 123-45-6789, 123 45.6789,
// 123-456789, 12345-6789, 123456789.
const SSN_SHAPED = /(?<![\w.\u2013-])\d{3}[ .\u2013-]?\d{2}[ .\u2013-]?\d{4}(?![\w]|[.\u2013-]\d)/g;

// "12345-6789" is also how US addresses write a ZIP+4 code. After a state
// code ("Austin, TX 78701-1234") or the word ZIP, it is one.
const ZIP_PLUS_4 = /^\d{5}-\d{4}$/;
const ADDRESS_BEFORE = /(?:\b[A-Z]{2},?|\bzip(?:\s*code)?:?)\s+$/i;

function ssnShaped(text: string): (Span & { text: string })[] {
  return [...spans(text, SSN_SHAPED)].filter((m) => !(ZIP_PLUS_4.test(m.text) && ADDRESS_BEFORE.test(text.slice(Math.max(0, m.start - 16), m.start))));
}

const SSN_SAMPLES = ["123456789", "078051120", "219099999"];

/** US SSN: no area 000, 666 or 900-999, no group 00, no serial 0000, no known samples. */
export function isValidSsn(digits: string): boolean {
  const area = Number(digits.slice(0, 3));
  if (area === 0 || area === 666 || area >= 900) return false;
  if (digits.slice(3, 5) === "00" || digits.slice(5) === "0000") return false;
  if (/^(\d)\1+$/.test(digits)) return false;
  return !SSN_SAMPLES.includes(digits) && !digits.startsWith("98765432");
}

/** ITIN: area 9xx and a group in the IRS ranges 50-65, 70-88, 90-92, 94-99. */
export function isValidItin(digits: string): boolean {
  if (digits[0] !== "9") return false;
  const group = Number(digits.slice(3, 5));
  return (group >= 50 && group <= 65) || (group >= 70 && group <= 88) || (group >= 90 && group <= 92) || (group >= 94 && group <= 99);
}

export function findSsn(text: string): Span[] {
  return ssnShaped(text).filter((m) => isValidSsn(digitsOf(m.text)));
}

export function findItin(text: string): Span[] {
  return ssnShaped(text).filter((m) => isValidItin(digitsOf(m.text)));
}
