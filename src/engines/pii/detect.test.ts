import { describe, expect, it } from "vitest";
import { ibanMod97Valid, luhnValid, verhoeffValid } from "./checksums";
import { detectPii } from "./detect";
import { isValidItin, isValidSsn } from "./numbers";
import { describeWithCorpus } from "../../../test/support/corpus";
import { deliberateDifference, ourExpected, PRESIDIO_TYPES, presidioVectors } from "../../../test/support/presidio";

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
    const differs = deliberateDifference(v);
    const title = `${v.entity} #${i}: ${JSON.stringify(v.text)} -> ${JSON.stringify(ourExpected(v))}${differs ? ` (${differs.reason})` : ""}`;
    it(title, () => {
      const found = detectPii(v.text, [PRESIDIO_TYPES[v.entity]]).map((m) => m.value);
      expect(found).toEqual(ourExpected(v));
    });
  }
});

describeWithCorpus("recall and precision over Presidio's strings", () => {
  it("scores recall and precision against Presidio's own answers (figures in the README)", () => {
    // Presidio's answers as they are, and within our types' scope (IPv4 only, PAN as AAAAA9999A; docs/reference/pdf-stamps.md).
    const score = (inScope: (v: (typeof all)[number]) => boolean) => {
      let expected = 0;
      let hits = 0;
      let found = 0;
      for (const v of all.filter(inScope)) {
        const got = detectPii(v.text, [PRESIDIO_TYPES[v.entity]]).map((m) => m.value);
        expected += v.expected.length;
        found += got.length;
        hits += got.filter((g) => v.expected.includes(g)).length;
      }
      return { recall: hits / expected, precision: hits / found };
    };
    const raw = score(() => true);
    const scoped = score((v) => !deliberateDifference(v) || deliberateDifference(v)!.expected.length > 0);
    console.log(
      `PII on Presidio's ${all.length} strings: recall ${raw.recall.toFixed(3)}, precision ${raw.precision.toFixed(3)}; within our scope: recall ${scoped.recall.toFixed(3)}, precision ${scoped.precision.toFixed(3)}`,
    );
    expect(scoped.recall).toBe(1);
    expect(scoped.precision).toBeGreaterThanOrEqual(0.99);
  });
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
  it("settles overlaps by the types' priority and reports every type", () => {
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

  it("finds SSNs and ITINs with the separators people type: mixed, missing, en dash, dots (issue #14)", () => {
    for (const ssn of ["078-05-1123", "078 05-1123", "078.05 1123", "078-051123", "07805-1123", "078051123", "078\u201305\u20131123"]) {
      expect(
        detectPii(`SSN: ${ssn}.`, ["US_SSN"]).map((m) => m.value),
        ssn,
      ).toEqual([ssn]);
    }
    for (const itin of ["912-70 1234", "912701234", "91270-1234"])
      expect(
        detectPii(`ITIN ${itin}`, ["US_ITIN"]).map((m) => m.value),
        itin,
      ).toEqual([itin]);
  });

  it("leaves a ZIP+4 code in an address alone", () => {
    for (const address of ["1 Main St, Austin, TX 78701-1234", "Springfield IL 62704-0001", "ZIP code: 10001-1234"])
      expect(detectPii(address, ["US_SSN"]), address).toEqual([]);
  });

  it("finds Chinese mobile numbers written without +86, bare or grouped, and not other 11-digit runs", () => {
    for (const phone of ["13812345678", "138 1234 5678", "159-1234-5678", "19912345678"]) {
      expect(
        detectPii(`call ${phone} now`, ["PHONE"]).map((m) => m.value),
        phone,
      ).toEqual([phone]);
    }
    for (const other of ["12012345678", "10012345678", "order 23812345678", "138123456789"]) expect(detectPii(other, ["PHONE"]), other).toEqual([]);
  });

  it("an IBAN-shaped string whose check digits fail is not redacted", () => {
    expect(detectPii("Pay to GB82 WEST 1234 5698 7654 33", ["IBAN"])).toEqual([]);
    expect(detectPii("Pay to GB82 WEST 1234 5698 7654 32", ["IBAN"]).map((m) => m.value)).toEqual(["GB82 WEST 1234 5698 7654 32"]);
  });

  it("a mistyped IBAN is not redacted as another type either (issue #32): its digit groups belong to it", () => {
    // One digit changed in GB82 WEST 1234 5698 7654 32 and DE89 3704 0044 0532 0130 00: mod-97 fails, and
    // "1234 5698 7654 30" happens to pass Luhn, which used to make it a CREDIT_CARD.
    for (const bad of [
      "GB82 WEST 1234 5698 7654 30",
      "GB82WEST12345698765430",
      "GB82-WEST-1034-5698-7654-32",
      "DE89 3704 0044 0532 0130 01",
      "DE89370400440532013001",
    ]) {
      expect(detectPii(`Pay to ${bad} today`), bad).toEqual([]);
      expect(detectPii(`Pay to ${bad} today`, ["CREDIT_CARD"]), bad).toEqual([]);
    }
    // The same digits standing alone are still a card, and a valid IBAN is one IBAN, not a card inside one.
    expect(detectPii("Card 1234 5698 7654 30 today").map((m) => m.type)).toEqual(["CREDIT_CARD"]);
    expect(detectPii("Pay to GB82 WEST 1234 5698 7654 32 today").map((m) => [m.type, m.value])).toEqual([["IBAN", "GB82 WEST 1234 5698 7654 32"]]);
  });

  it("restricts to the requested types", () => {
    const text = "jane@example.org 4111111111111111";
    expect(detectPii(text, ["EMAIL"]).map((m) => m.type)).toEqual(["EMAIL"]);
  });
});
