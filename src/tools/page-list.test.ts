import { describe, expect, it } from "vitest";
import { parsePageList, resolvePageList } from "./page-list";

/** 1-based pages a list selects from `count`, or its error. */
function pages(spec: string, count: number, limit?: number): number[] | string {
  const parsed = parsePageList(spec);
  if (!parsed.ok) return parsed.error;
  const resolved = resolvePageList(parsed.value, count, limit);
  return resolved.ok ? resolved.value.map((i) => i + 1) : resolved.error;
}

describe("page lists (pure)", () => {
  it("reads pages, spans, open and backward spans, negatives, odd and even, in the order written", () => {
    expect(pages("3,1,5-7,2", 8)).toEqual([3, 1, 5, 6, 7, 2]);
    expect(pages("2-", 4)).toEqual([2, 3, 4]);
    expect(pages("-3--1", 5)).toEqual([3, 4, 5]);
    expect(pages("-1", 5)).toEqual([5]);
    expect(pages("4-2", 5)).toEqual([4, 3, 2]);
    expect(pages("-1-1", 3)).toEqual([3, 2, 1]);
    expect(pages("ODD, even", 5)).toEqual([1, 3, 5, 2, 4]);
    expect(pages(" 1 - 2 ,1", 3)).toEqual([1, 2, 1]);
  });

  it("names the bad entry: page 0, past the end, before the first page, empty entries, junk", () => {
    expect(pages("1,0", 3)).toMatch(/"0".*no page 0/);
    expect(pages("2-4", 3)).toMatch(/"2-4": page 4 is past the end; there are 3 pages/);
    expect(pages("-4", 3)).toMatch(/page -4 is before the first page/);
    expect(pages("1,,2", 3)).toMatch(/empty entry/);
    expect(pages("  ", 3)).toMatch(/empty/);
    expect(pages("1-x", 3)).toMatch(/"1-x" is not a page number/);
    expect(pages("1.5", 3)).toMatch(/not a page number/);
    expect(pages("--1", 3)).toMatch(/not a page number/);
    expect(pages("even", 1)).toMatch(/no even pages/);
  });

  it("refuses a selection over the limit before expanding it", () => {
    expect(pages("1-,1-,1-", 1000, 2000)).toMatch(/more than 2000 pages/);
    expect(pages("1-,1-", 1000, 2000)).toHaveLength(2000);
  });
});
