import { describe, expect, it } from "vitest";
import { ecdsaDerToRaw, ecdsaRawToDer } from "../../../src/engines/signatures/asn1";
import { parsePdfDate, pdfDate, pdfText } from "../../../src/engines/signatures/pdf-syntax";
import { revisionEnds } from "../../../src/engines/signatures/verify";

// The small pure pieces of the signature engines, where a slip would only
// show in an odd file: dates, strings, revision ends, ECDSA shapes.

describe("PDF dates", () => {
  it("writes UTC and reads what readers write", () => {
    expect(pdfDate(new Date("2026-12-03T15:04:05.678Z"))).toBe("D:20261203150405Z");
    expect(parsePdfDate("D:20261203150405Z")).toBe("2026-12-03T15:04:05.000Z");
    expect(parsePdfDate("D:20261203160405+01'00'")).toBe("2026-12-03T15:04:05.000Z");
    expect(parsePdfDate("D:20261203100405-05'00")).toBe("2026-12-03T15:04:05.000Z");
    expect(parsePdfDate("D:2026")).toBe("2026-01-01T00:00:00.000Z");
    expect(parsePdfDate("yesterday")).toBeNull();
    expect(parsePdfDate(null)).toBeNull();
  });
});

describe("PDF text strings", () => {
  it("escapes literals and writes UTF-16BE hex for anything else", () => {
    expect(pdfText("a (b) \\c")).toBe("(a \\(b\\) \\\\c)");
    expect(pdfText("Zürich")).toBe("<FEFF005a00fc0072006900630068>");
  });
});

describe("revision ends", () => {
  it("finds each %%EOF with its end of line", () => {
    const bytes = new TextEncoder().encode("%PDF-1.7\n...%%EOF\r\nmore%%EOF\n%%EOF");
    expect(revisionEnds(bytes)).toEqual([19, 29, 34]);
  });
});

describe("ECDSA signature shapes", () => {
  it("r||s to DER and back, with high bits and leading zeros", () => {
    const raw = new Uint8Array(64);
    raw[0] = 0x80;
    raw[31] = 1;
    raw[63] = 2;
    const der = ecdsaRawToDer(raw);
    expect(der[0]).toBe(0x30);
    expect(ecdsaDerToRaw(der, 32)).toEqual(raw);
    expect(ecdsaDerToRaw(new Uint8Array([1, 2, 3]), 32)).toBeNull();
  });
});
