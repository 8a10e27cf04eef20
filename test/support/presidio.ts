import type { EntityType } from "../../src/engines/pii/entity-types";
import { corpusText, hasCorpus } from "./corpus";

// Microsoft Presidio's recogniser strings (shared/corpus/pii), read once for
// the detector tests and the redaction tests, with our type names and the
// cases where we deliberately differ.

/** Presidio's entity names -> ours. */
export const PRESIDIO_TYPES: Record<string, EntityType> = {
  CREDIT_CARD: "CREDIT_CARD",
  IN_AADHAAR: "AADHAAR",
  IBAN: "IBAN",
  US_SSN: "US_SSN",
  US_ITIN: "US_ITIN",
  IN_PAN: "PAN_INDIA",
  EMAIL: "EMAIL",
  IP_ADDRESS: "IP_ADDRESS",
  PHONE_NUMBER: "PHONE",
};

export interface Vector {
  entity: string;
  text: string;
  expected: string[];
}

/** Every vector of the corpus file; none without a corpus (those tests skip). */
export async function presidioVectors(): Promise<Vector[]> {
  if (!hasCorpus) return [];
  return (await corpusText("pii/presidio_vectors.tsv"))
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [entity, text, , values] = line.split("\t");
      const json = values.startsWith('"') ? values.slice(1, -1).replace(/""/g, '"') : values;
      return { entity, text, expected: JSON.parse(json) as string[] };
    });
}

/**
 * Where we deliberately differ from Presidio, with the reason and what we
 * find instead; each case is still asserted, so a change of behaviour shows
 * up. Null where we agree.
 */
export function deliberateDifference(v: Vector): { reason: string; expected: string[] } | null {
  const none = (reason: string) => ({ reason, expected: [] });
  if (v.entity === "IP_ADDRESS" && v.text.includes(":")) return none("IP_ADDRESS means IPv4 addresses (docs/reference/pdf-stamps.md)");
  if (v.entity === "IN_PAN" && !/[A-Z]{5}\d{4}[A-Z]/.test(v.text)) return none("PAN_INDIA is the pattern AAAAA9999A (docs/reference/pdf-stamps.md)");
  if (v.entity === "US_SSN" && v.text === "693-09.4444") return { reason: "issue #14: mixed separators are how people type SSNs", expected: ["693-09.4444"] };
  return null;
}

/** What our detectors must find in a vector: Presidio's answer, or ours where we differ on purpose. */
export const ourExpected = (v: Vector): string[] => deliberateDifference(v)?.expected ?? v.expected;
