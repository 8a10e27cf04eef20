import { describe, expect, it } from "vitest";
import { ibanMod97Valid, luhnValid, verhoeffValid } from "./checksums";
import { detectPii } from "./detect";
import { isValidItin, isValidSsn } from "./numbers";
import { describeWithCorpus } from "../../../test/support/corpus";
import { deliberateMiss, PRESIDIO_TYPES, presidioVectors } from "../../../test/support/presidio";

// The detectors are a pure module; these tests drive them with Presidio's own
// recogniser strings (shared/corpus/pii) and with the check-digit algorithms'
// textbook cases.

const all = await presidioVectors();

describeWithCorpus("PII detectors on Presidio's recogniser strings", () => {
  it("reads the whole corpus", () => {
    expect(all.length).toBeGreaterThan(400);
    expect(new Set(all.map((v) => v.entity))).toEqual(new Set(Object.keys(PRESIDIO_TYPES)));
  });

  for (const [i, v] of all.entries()) {
    const reason = deliberateMiss(v);
    const title = `${v.entity} #${i}: ${JSON.stringify(v.text)} -> ${reason ? `nothing (${reason})` : JSON.stringify(v.expected)}`;
    it(title, () => {
      const found = detectPii(v.text, [PRESIDIO_TYPES[v.entity]]).map((m) => m.value);
      expect(found).toEqual(reason ? [] : v.expected);
    });
  }
});

describe("check digits", () => {
  it("Luhn accepts card test numbers and rejects a changed digit", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("79927398713")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(luhnValid("4012888888881882")).toBe(false);
  });

  it("Verhoeff accepts 2363 (check digit 3) and valid Aadhaars, rejects others", () => {
    expect(verhoeffValid("2363")).toBe(true);
    expect(verhoeffValid("2364")).toBe(false);
    expect(verhoeffValid("312345678909")).toBe(true);
    expect(verhoeffValid("123456789012")).toBe(false);
  });

  it("mod-97 accepts registry examples and rejects a swapped check digit", () => {
    expect(ibanMod97Valid("GB82WEST12345698765432")).toBe(true);
    expect(ibanMod97Valid("DE89370400440532013000")).toBe(true);
    expect(ibanMod97Valid("GB82WEST12345698765433")).toBe(false);
    expect(ibanMod97Valid("gb82west12345698765432")).toBe(false);
  });

  it("SSN ranges: no area 000, 666 or 9xx, no group 00, no serial 0000", () => {
    expect(isValidSsn("078051121")).toBe(true);
    expect(isValidSsn("000121234")).toBe(false);
    expect(isValidSsn("666121234")).toBe(false);
    expect(isValidSsn("912701234")).toBe(false);
    expect(isValidSsn("123001234")).toBe(false);
    expect(isValidSsn("123450000")).toBe(false);
    expect(isValidSsn("078051120")).toBe(false);
    expect(isValidSsn("111111111")).toBe(false);
  });

  it("ITIN groups 50-65, 70-88, 90-92, 94-99 only", () => {
    for (const g of ["50", "65", "70", "88", "90", "92", "94", "99"]) expect(isValidItin(`9${"12"}${g}1234`), g).toBe(true);
    for (const g of ["49", "66", "69", "89", "93", "00"]) expect(isValidItin(`912${g}1234`), g).toBe(false);
    expect(isValidItin("812701234")).toBe(false);
  });
});

describe("detection in running text", () => {
  it("settles overlaps by api.md's priority and reports every type", () => {
    const text = [
      "Card 4111 1111 1111 1111, Aadhaar 3123 4567 8909, IBAN DE89 3704 0044 0532 0130 00,",
      "SSN 078-05-1123, ITIN 912-70-1234, PAN ABCPD1234Z, mail jane.doe@example.org,",
      "host 10.0.0.254, call +44 20 7946 0958 or (415) 555-0132.",
    ].join(" ");
    const found = detectPii(text).map((m) => [m.type, m.value]);
    expect(found).toEqual([
      ["CREDIT_CARD", "4111 1111 1111 1111"],
      ["AADHAAR", "3123 4567 8909"],
      ["IBAN", "DE89 3704 0044 0532 0130 00"],
      ["US_SSN", "078-05-1123"],
      ["US_ITIN", "912-70-1234"],
      ["PAN_INDIA", "ABCPD1234Z"],
      ["EMAIL", "jane.doe@example.org"],
      ["IP_ADDRESS", "10.0.0.254"],
      ["PHONE", "+44 20 7946 0958"],
      ["PHONE", "(415) 555-0132"],
    ]);
  });

  it("leaves numbers that fail their checks alone", () => {
    const text = "Card 4111 1111 1111 1112, Aadhaar 1234 5678 9012, IBAN DE89 3704 0044 0532 0130 01, SSN 666-12-3456, IP 256.1.1.1";
    expect(detectPii(text)).toEqual([]);
  });

  it("restricts to the requested types", () => {
    const text = "jane@example.org 4111111111111111";
    expect(detectPii(text, ["EMAIL"]).map((m) => m.type)).toEqual(["EMAIL"]);
  });
});
