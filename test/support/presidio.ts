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
 * Where we deliberately differ from Presidio, with the reason; each case is
 * still asserted (to find nothing), so a change of behaviour shows up.
 */
export function deliberateMiss(v: Vector): string | null {
  if (v.entity === "IP_ADDRESS" && v.text.includes(":")) return "api.md: IP_ADDRESS means IPv4 addresses";
  if ((v.entity === "US_SSN" || v.entity === "US_ITIN") && /\d{3}-\d{6}|\d{5}-\d{4}/.test(v.text)) return "5-4 is a ZIP+4 code; 3-6 is not an SSN spelling";
  if (v.entity === "IN_PAN" && !/[A-Z]{5}\d{4}[A-Z]/.test(v.text)) return "api.md: PAN_INDIA is the pattern AAAAA9999A";
  if (v.entity === "PHONE_NUMBER" && /^\D*\d{11}$/.test(v.text)) return "bare digit runs are not treated as phones";
  return null;
}
