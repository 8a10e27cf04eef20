import { describe, expect, it } from "vitest";
import { formatIsoDate, formatPdfDate, parseIsoDate, parsePdfDate, utcParts } from "./dates";

describe("PDF and XMP dates", () => {
  const pairs: [string, string][] = [
    ["2024-05-01T10:20:30+02:00", "D:20240501102030+02'00"],
    ["2024-05-01T10:20:30Z", "D:20240501102030Z"],
    ["2023-12-31T23:59:59-05:30", "D:20231231235959-05'30"],
    ["2024-01-01T00:00:00", "D:20240101000000"],
    ["2024-05-01T10:20", "D:202405011020"],
    ["2020-02-29", "D:20200229"],
    ["2024-05", "D:202405"],
    ["2024", "D:2024"],
  ];
  it.each(pairs)("%s <-> %s", (iso, pdf) => {
    const fromIso = parseIsoDate(iso);
    expect(fromIso).not.toBeNull();
    expect(formatPdfDate(fromIso as never)).toBe(pdf);
    const fromPdf = parsePdfDate(pdf);
    expect(formatIsoDate(fromPdf as never)).toBe(iso);
  });

  it("reads the PDF spellings writers use: trailing apostrophe, no D:, ISO in Info", () => {
    expect(formatIsoDate(parsePdfDate("D:20070113191400+01'00'") as never)).toBe("2007-01-13T19:14:00+01:00");
    expect(formatIsoDate(parsePdfDate("20070113191400Z") as never)).toBe("2007-01-13T19:14:00Z");
    expect(formatIsoDate(parsePdfDate("2007-01-13T19:14:00+01:00") as never)).toBe("2007-01-13T19:14:00+01:00");
  });

  it("refuses what is not a date", () => {
    for (const v of ["2023-02-29", "2024-13-01", "2024-00-10", "2024-05-01T24:00", "2024-05-01T10:60", "2024-05-01T10:00:00+14:30", "May 1", "", "2024-5-1"]) {
      expect(parseIsoDate(v), v).toBeNull();
    }
    expect(parsePdfDate("D:20241301")).toBeNull();
    expect(parsePdfDate("garbage")).toBeNull();
  });

  it("now, in UTC to the second", () => {
    expect(formatIsoDate(utcParts(new Date("2026-12-03T08:01:02.789Z")))).toBe("2026-12-03T08:01:02Z");
  });
});
