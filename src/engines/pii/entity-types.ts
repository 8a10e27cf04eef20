// Redact PII (docs/reference/pdf-stamps.md): the supported types in match-priority order (an earlier
// type wins when two matches overlap).
export const ENTITY_TYPES = ["CREDIT_CARD", "AADHAAR", "IBAN", "US_SSN", "US_ITIN", "PAN_INDIA", "EMAIL", "IP_ADDRESS", "PHONE"] as const;

export type EntityType = (typeof ENTITY_TYPES)[number];

export function isEntityType(value: string): value is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(value);
}

/** A detected entity: [start, end) offsets into the scanned text. */
export interface PiiMatch {
  type: EntityType;
  start: number;
  end: number;
  value: string;
}

export interface Span {
  start: number;
  end: number;
}
