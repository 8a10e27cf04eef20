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

// 123-45-6789 with one separator used twice, or nine bare digits. The
// 5-4 and 3-6 spellings Presidio also scores are left out on purpose: 5-4 is
// a US ZIP+4 code ("94105-1234"), which would black out postal addresses.
const SSN_SHAPED = /(?<![\w.-])(?:\d{3}([ .-])\d{2}\1\d{4}|\d{9})(?![\w]|[.-]\d)/g;

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
  return [...spans(text, SSN_SHAPED)].filter((m) => isValidSsn(digitsOf(m.text)));
}

export function findItin(text: string): Span[] {
  return [...spans(text, SSN_SHAPED)].filter((m) => isValidItin(digitsOf(m.text)));
}
