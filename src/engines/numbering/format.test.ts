import { describe, expect, it } from "vitest";
import { FormatError, pageLabels, parseFormat, toAlpha, toRoman } from "./format";
import { anchorCenter, apply, stampMatrix, tileCenters, visualSize } from "../mupdf/stamps/placement";

describe("page-number formatting", () => {
  it("Roman numerals", () => {
    const cases: [number, string][] = [
      [1, "i"],
      [4, "iv"],
      [9, "ix"],
      [14, "xiv"],
      [40, "xl"],
      [90, "xc"],
      [400, "cd"],
      [1994, "mcmxciv"],
      [3999, "mmmcmxcix"],
    ];
    for (const [n, r] of cases) expect(toRoman(n)).toBe(r);
    expect(() => toRoman(0)).toThrow(FormatError);
    expect(() => toRoman(4000)).toThrow(FormatError);
  });

  it("letters run like spreadsheet columns", () => {
    const cases: [number, string][] = [
      [1, "a"],
      [26, "z"],
      [27, "aa"],
      [52, "az"],
      [53, "ba"],
      [702, "zz"],
      [703, "aaa"],
    ];
    for (const [n, a] of cases) expect(toAlpha(n)).toBe(a);
    expect(() => toAlpha(0)).toThrow(FormatError);
  });

  it("parses literals and tokens, refuses unknown tokens", () => {
    expect(parseFormat("p. {n}/{total}")).toEqual([{ literal: "p. " }, { token: "n" }, { literal: "/" }, { token: "total" }]);
    expect(parseFormat("no tokens")).toEqual([{ literal: "no tokens" }]);
    expect(() => parseFormat("{N}")).toThrow(FormatError);
    expect(pageLabels("{ROMAN}-{alpha}", 3, 2)).toEqual(["III-c", "IV-d"]);
  });
});

describe("stamp placement (visual space, y down)", () => {
  it("a stamp matrix centres the box and turns it counter-clockwise as seen", () => {
    const stamp = { box: [0, 0, 100, 20] as [number, number, number, number], scale: 2, angle: 90 };
    const m = stampMatrix(stamp, 300, 400);
    expect(apply(m, 50, 10).map((v) => Math.round(v))).toEqual([300, 400]);
    // The box's right end (x = 100) goes up the page (smaller y) when turned 90 degrees.
    const [x, y] = apply(m, 100, 10);
    expect(Math.round(x)).toBe(300);
    expect(Math.round(y)).toBe(300);
    expect(visualSize(stamp).map((v) => Math.round(v))).toEqual([40, 200]);
  });

  it("anchors keep the margin and centre what does not fit", () => {
    expect(anchorCenter("top-left", [600, 800], [100, 20], 36)).toEqual([86, 46]);
    expect(anchorCenter("bottom-right", [600, 800], [100, 20], 36)).toEqual([514, 754]);
    expect(anchorCenter("bottom-center", [600, 800], [100, 20], 36)).toEqual([300, 754]);
    expect(anchorCenter("top-left", [600, 800], [700, 20], 36)).toEqual([300, 46]);
  });

  it("tiles cover the page and respect the cap", () => {
    const centres = tileCenters([600, 800], 45, { stepX: 120, stepY: 60, stagger: true, max: 200 });
    expect(centres.length).toBeGreaterThan(20);
    expect(Math.min(...centres.map((c) => c[0]))).toBeLessThan(60);
    expect(Math.max(...centres.map((c) => c[1]))).toBeGreaterThan(740);
    const capped = tileCenters([5000, 5000], 0, { stepX: 10, stepY: 10, stagger: false, max: 50 });
    expect(capped.length).toBeLessThanOrEqual(50);
    expect(Math.max(...capped.map((c) => c[1]))).toBeGreaterThan(4000);
  });
});
