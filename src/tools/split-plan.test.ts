import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import { bookmarkFileTitle, planSplit } from "./split-plan";

const doc = (pages: number, bookmarks: { title: string; page: number }[] = []) => ({ pages, bookmarks });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? err.code : "other";
  }
  return undefined;
}

describe("planSplit (pure)", () => {
  it("pages before the first bookmark go to the first part; bookmarks on one page share it", () => {
    const parts = planSplit(
      doc(10, [
        { title: "B", page: 6 },
        { title: "A", page: 2 },
        { title: "A2", page: 2 },
      ]),
      "bookmarks",
      {},
      "x",
    );
    expect(parts.map((p) => [p.name, p.pages[0], p.pages.at(-1)])).toEqual([
      ["01_A2.pdf", 0, 5],
      ["02_B.pdf", 6, 9],
    ]);
  });

  it("numbers with three digits when there are more than 99 parts", () => {
    const marks = Array.from({ length: 120 }, (_, i) => ({ title: `c${i}`, page: i }));
    expect(planSplit(doc(120, marks), "bookmarks", {}, "x")[0].name).toBe("001_c0.pdf");
  });

  it("limits: 200 parts fine, 201 refused, from every mode", () => {
    expect(planSplit(doc(200), "whatever", {}, "x")).toHaveLength(200);
    expect(codeOf(() => planSplit(doc(201), "whatever", {}, "x"))).toBe("too_many_parts");
    expect(codeOf(() => planSplit(doc(402), "page_count", { pages_per_file: 2 }, "x"))).toBe("too_many_parts");
    const ranges = Array.from({ length: 201 }, () => [1, 1]);
    expect(codeOf(() => planSplit(doc(3), "page_range", { ranges }, "x"))).toBe("too_many_parts");
  });

  it("safe ZIP entry names from bookmark titles", () => {
    expect(bookmarkFileTitle("  ../../etc/passwd  ")).toBe("_.._etc_passwd");
    expect(bookmarkFileTitle('Kapitel 3: "Übersicht" <neu>')).toBe("Kapitel 3_ _Übersicht_ _neu_");
    expect(bookmarkFileTitle("a\u0000b\nc")).toBe("a_b_c");
    expect(bookmarkFileTitle("x".repeat(300))).toHaveLength(80);
  });
});
