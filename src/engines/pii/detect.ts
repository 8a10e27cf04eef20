import { ENTITY_TYPES, type EntityType, type PiiMatch, type Span } from "./entity-types";
import { findAadhaar, findCreditCards, findItin, findSsn } from "./numbers";
import { findEmails, findIbanShapes, findIbans, findIpv4, findPan, findPhones } from "./patterns";

const DETECTORS: Record<EntityType, (text: string) => Span[]> = {
  CREDIT_CARD: findCreditCards,
  AADHAAR: findAadhaar,
  IBAN: findIbans,
  US_SSN: findSsn,
  US_ITIN: findItin,
  PAN_INDIA: findPan,
  EMAIL: findEmails,
  IP_ADDRESS: findIpv4,
  PHONE: findPhones,
};

/**
 * Finds the requested entity types in `text`. Overlaps are settled by the
 * types' priority order (an earlier type wins; docs/reference/pdf-stamps.md),
 * then by the earlier and longer match. The result is sorted by position and never overlaps.
 */
export function detectPii(text: string, types: readonly EntityType[] = ENTITY_TYPES): PiiMatch[] {
  const wanted = ENTITY_TYPES.filter((t) => types.includes(t));
  // The digit groups of an IBAN-shaped string ("GB82 WEST 1234 5698 7654 30")
  // are part of it, not a card or phone of their own: whether its mod-97
  // holds decides alone, so a mistyped IBAN is not redacted as a card whose
  // Luhn digit happens to pass.
  const ibanShapes = findIbanShapes(text);
  const insideIban = (s: Span) => ibanShapes.some((i) => s.start >= i.start && s.end <= i.end);
  const candidates: PiiMatch[] = [];
  for (const type of wanted) {
    for (const s of DETECTORS[type](text)) {
      if (type !== "IBAN" && insideIban(s)) continue;
      candidates.push({ type, start: s.start, end: s.end, value: text.slice(s.start, s.end) });
    }
  }
  const rank = (t: EntityType) => ENTITY_TYPES.indexOf(t);
  candidates.sort((a, b) => rank(a.type) - rank(b.type) || a.start - b.start || b.end - a.end);
  const kept: PiiMatch[] = [];
  for (const c of candidates) {
    if (!kept.some((k) => c.start < k.end && k.start < c.end)) kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** Counts matches per type; types with no match are left out. */
export function countByType(matches: readonly PiiMatch[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of matches) counts[m.type] = (counts[m.type] ?? 0) + 1;
  return counts;
}
