import { describe, expect, it } from "vitest";
import { expandLigatures } from "./to-unicode";

// The ToUnicode rewrite on CMaps shaped as MuPDF writes them (ranges,
// chars, arrays), read back with a small CMap reader of its own.

/** code -> text, from bfchar and bfrange entries (PDF 32000-1, 9.10.3). */
function readCmap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const text = (hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => Number.parseInt(h, 16)));
  for (const [, kind, body] of cmap.matchAll(/\d+\s+begin(bfchar|bfrange)([\s\S]*?)end\1/g)) {
    if (kind === "bfchar") for (const [, src, dst] of body.matchAll(/<(\w+)>\s*<(\w+)>/g)) map.set(Number.parseInt(src, 16), text(dst));
    else
      for (const [, lo, hi, dst] of body.matchAll(/<(\w+)>\s*<(\w+)>\s*<(\w+)>/g)) {
        for (let c = Number.parseInt(lo, 16); c <= Number.parseInt(hi, 16); c++)
          map.set(c, String.fromCharCode(Number.parseInt(dst, 16) + c - Number.parseInt(lo, 16)));
      }
  }
  return map;
}

const CMAP = (body: string) =>
  `/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange ${body} endcmap CMapName currentdict /CMap defineresource pop end end`;

describe("expandLigatures", () => {
  it("maps every ligature glyph to its letters and leaves every other code as it was", () => {
    const before = CMAP(
      "3 beginbfrange <0001> <0007> <0020> <006d> <006e> <fb01> <00e5> <00eb> <faff> endbfrange 2 beginbfchar <0008> <2019> <0010> <FB00> endbfchar",
    );
    const after = expandLigatures(before);
    expect(after).not.toBeNull();
    const was = readCmap(before);
    const now = readCmap(after as string);
    expect([...now.keys()].sort((a, b) => a - b)).toEqual([...was.keys()].sort((a, b) => a - b));
    const want: Record<number, string> = { 109: "fi", 110: "fl", 230: "ff", 231: "fi", 232: "fl", 233: "ffi", 234: "ffl", 235: "st", 16: "ff" };
    for (const [code, t] of was) expect(now.get(code), code.toString(16)).toBe(want[code] ?? t);
    expect(after).toContain("endcodespacerange");
    expect(after).toMatch(/endcmap CMapName currentdict/);
  });

  it("array destinations are expanded entry by entry", () => {
    const after = expandLigatures(CMAP("1 beginbfrange <0020> <0022> [<0041> <fb06> <0043>] endbfrange")) ?? "";
    expect(readCmap(after)).toEqual(
      new Map([
        [0x20, "A"],
        [0x21, "st"],
        [0x22, "C"],
      ]),
    );
  });

  it("answers null for a CMap without ligatures (the stream is kept)", () => {
    expect(expandLigatures(CMAP("1 beginbfrange <0001> <0050> <0020> endbfrange 1 beginbfchar <0060> <2019> endbfchar"))).toBeNull();
    expect(expandLigatures("not a cmap")).toBeNull();
  });
});
