import { describe, expect, it } from "vitest";
import { sourceFormatOf, targetFormatOf } from "../../../src/engines/convert/formats";
import { PAIRS } from "../../../src/engines/convert/pairs";
import type { Glyph, TextLine } from "../../../src/engines/convert/pdf-docx/model";
import { paragraphsOf } from "../../../src/engines/convert/pdf-docx/paragraphs";
import { cellAt, findGrids, mergeRows } from "../../../src/engines/convert/pdf-docx/tables";
import { writeDocx } from "../../../src/engines/convert/pdf-docx/write-docx";
import { textSimilarity } from "../../../src/engines/convert/text-similarity";
import { formatNumber, labelNumberedParagraphs } from "../../../src/engines/docx/list-labels";
import { docxPageSetup } from "../../../src/engines/docx/page-setup";
import { fontFacts } from "../../../src/engines/mupdf/inspect/page-content";
import { call } from "../../support/http";
import { documentXml, docxText } from "./support";

// The pure pieces behind Convert document, checked on hand-made inputs.

function line(text: string, x: number, baseline: number, size = 10, style: Partial<Glyph> = {}): TextLine {
  const w = size * 0.5;
  return {
    glyphs: [...text].map((c, i) => ({
      c,
      x0: x + i * w,
      x1: x + (i + 1) * w,
      y0: baseline - size * 0.8,
      y1: baseline + size * 0.2,
      baseline,
      size,
      font: "Arial",
      bold: false,
      italic: false,
      underline: false,
      color: "000000",
      ...style,
    })),
  };
}

describe("Convert document engine parts", () => {
  it("formats: extensions and target spellings", () => {
    expect(sourceFormatOf("Report.PDF")).toBe("pdf");
    expect(sourceFormatOf("photo.jpeg")).toBe("jpg");
    expect(sourceFormatOf("scan.tif")).toBe("tiff");
    expect(sourceFormatOf("README")).toBeNull();
    expect(targetFormatOf(" .JPEG ")).toBe("jpg");
    expect(targetFormatOf("markdown")).toBe("md");
    expect(targetFormatOf("xlsx")).toBeNull();
  });

  it("the pairs table has one engine per pair and no pair twice", () => {
    const keys = PAIRS.map((p) => `${p.source}>${p.target}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(
      expect.arrayContaining([
        "pdf>docx",
        "pdf>png",
        "pdf>jpg",
        "pdf>txt",
        "jpg>pdf",
        "avif>pdf",
        "txt>pdf",
        "md>pdf",
        "html>pdf",
        "docx>pdf",
        "docx>txt",
        "docx>md",
      ]),
    );
  });

  it("text similarity: Dice over words, case and punctuation aside", () => {
    expect(textSimilarity("The cat sat.", "the CAT sat")).toBe(1);
    expect(textSimilarity("a b c d", "a b")).toBe(0.6667);
    expect(textSimilarity("", "")).toBe(1);
    expect(textSimilarity("abc", "")).toBe(0);
  });

  it("ruled grids: rows and columns from touching rules; a missing inner border is a column span", () => {
    const h = (y: number): [number, number, number, number] => [0, y - 0.5, 300, y + 0.5];
    const v = (x: number, y0 = 0, y1 = 60): [number, number, number, number] => [x - 0.5, y0, x + 0.5, y1];
    // 3 columns, 3 rows; the border at x=100 is missing in the first row.
    const grids = findGrids([h(0), h(20), h(40), h(60), v(0), v(100, 20, 60), v(200), v(300)]);
    expect(grids).toHaveLength(1);
    const [g] = grids;
    expect(g.xs).toEqual([0, 100, 200, 300]);
    expect(g.ys).toEqual([0, 20, 40, 60]);
    expect(g.spans).toEqual([
      [2, 0, 1],
      [1, 1, 1],
      [1, 1, 1],
    ]);
    expect(cellAt(g, 150, 10)).toEqual([0, 0]);
    expect(cellAt(g, 150, 30)).toEqual([1, 1]);
    expect(cellAt(g, 400, 30)).toBeNull();
    expect(g.rowSpans).toEqual([
      [1, 1, 1],
      [1, 1, 1],
      [1, 1, 1],
    ]);
    // No rule between the first two rows of column 0: one cell spanning two rows, when only one side has text.
    const rules = (): [number, number, number, number][] => [h(0), [100, 19.5, 300, 20.5], h(40), h(60), v(0), v(100), v(200), v(300)];
    const [merged] = findGrids(rules());
    expect(mergeRows(merged, (r, c) => r === 0 && c === 0)).toEqual([[0, 0, 2]]);
    expect(merged.spans.map((row) => row[0])).toEqual([1, -1, 1]);
    expect(merged.rowSpans[0]).toEqual([2, 1, 1]);
    expect(cellAt(merged, 50, 30)).toEqual([0, 0]);
    // Text on both sides keeps the rows apart: the rule was only left out of the drawing.
    const [kept] = findGrids(rules());
    expect(mergeRows(kept, (_r, c) => c === 0)).toEqual([]);
    // A lone box is not a table.
    expect(findGrids([h(0), h(20), v(0, 0, 20), v(300, 0, 20)])).toEqual([]);
  });

  it("paragraphs: lines at one pitch join; a gap, a bullet or a short line ends a paragraph; alignment is measured", () => {
    const column: [number, number] = [50, 350];
    const body = "x".repeat(60);
    const paragraphs = paragraphsOf(
      [line(body, 50, 100), line(body, 50, 112), line("end of it", 50, 124), line(body, 50, 160), line("• a bullet", 50, 172), line("Centred", 180, 200)],
      column,
    );
    expect(paragraphs.map((p) => p.runs.map((r) => r.text).join(""))).toEqual([`${body} ${body} end of it`, body, "• a bullet", "Centred"]);
    expect(paragraphs[0].pitch).toBe(12);
    expect(paragraphs[3].alignment).toBe("center");
  });

  it("a merged cell is written as a Word row span (vMerge), every row as wide as the grid", async () => {
    const h = (y: number): [number, number, number, number] => [0, y - 0.5, 200, y + 0.5];
    const v = (x: number): [number, number, number, number] => [x - 0.5, 0, x + 0.5, 40];
    const [grid] = findGrids([h(0), [100, 19.5, 200, 20.5], h(40), v(0), v(100), v(200)]);
    mergeRows(grid, (r, c) => !(r === 1 && c === 0));
    const cell = (t: string) => paragraphsOf([line(t, grid.xs[0] + 2, 12)], [0, 100]);
    const cells = [
      [cell("tall"), cell("b")],
      [[], cell("d")],
    ];
    const docx = await writeDocx([
      {
        width: 300,
        height: 200,
        margins: { top: 10, right: 10, bottom: 10, left: 10 },
        items: [{ kind: "table", table: { grid, cells }, top: 0, bottom: 40 }],
      },
    ]);
    const xml = documentXml(docx);
    expect(xml).toMatch(/<w:vMerge w:val="restart"\/>/);
    expect(xml).toMatch(/<w:vMerge(?: w:val="continue")?\/>/);
    const rows = xml.match(/<w:tr[ >][\s\S]*?<\/w:tr>/g) ?? [];
    expect(rows.map((r) => (r.match(/<w:tc>/g) ?? []).length)).toEqual([2, 2]);
    expect(docxText(xml)).toContain("tall");
  });

  it("paragraphs: runs keep bold, italic and colour apart", () => {
    const l: TextLine = {
      glyphs: [...line("ab", 50, 100).glyphs, ...line("cd", 60, 100, 10, { bold: true }).glyphs, ...line("ef", 70, 100, 10, { color: "ff0000" }).glyphs],
    };
    const [p] = paragraphsOf([l], [50, 350]);
    expect(p.runs.map((r) => [r.text, r.bold, r.color])).toEqual([
      ["ab", false, "000000"],
      ["cd", true, "000000"],
      ["ef", false, "ff0000"],
    ]);
  });

  it("font names: subset tags and style suffixes off, Base-14 as Word's families", () => {
    expect(fontFacts("ABCDEF+TimesNewRomanPS-BoldItalicMT", false, false)).toEqual({ font: "Times New Roman", bold: true, italic: true });
    expect(fontFacts("Helvetica-Oblique", false, false)).toEqual({ font: "Arial", bold: false, italic: true });
    expect(fontFacts("CMBX10", true, false)).toMatchObject({ bold: true });
  });

  it("Word list labels from numbering.xml: multi-level decimal, letters, roman; bullets untouched", () => {
    expect([formatNumber(3, "lowerLetter"), formatNumber(28, "lowerLetter"), formatNumber(14, "upperRoman"), formatNumber(7, "decimal")]).toEqual([
      "c",
      "bb",
      "XIV",
      "7",
    ]);
    const numbering =
      '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="%1.%2)"/></w:lvl></w:abstractNum>' +
      '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum>' +
      '<w:num w:numId="5"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="6"><w:abstractNumId w:val="1"/></w:num>';
    const p = (num: number, lvl: number, text: string) =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="${lvl}"/><w:numId w:val="${num}"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
    const doc = [p(5, 0, "A"), p(5, 1, "B"), p(5, 1, "C"), p(5, 0, "D"), p(5, 1, "E"), p(6, 0, "F")].join("");
    const labels = [...labelNumberedParagraphs(doc, numbering).matchAll(/<w:t xml:space="preserve">\uE000([^<]*) <\/w:t>/g)].map((m) => m[1]);
    expect(labels).toEqual(["1.", "1.i)", "1.ii)", "2.", "2.i)"]);
  });

  it("DOCX page setup from the last w:sectPr, landscape included", () => {
    const xml =
      '<w:body><w:sectPr><w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/><w:pgMar w:top="720" w:right="1080" w:bottom="720" w:left="1080"/></w:sectPr></w:body>';
    expect(docxPageSetup(xml)).toEqual({ width: 792, height: 612, margins: { top: 36, right: 54, bottom: 36, left: 54 } });
    expect(docxPageSetup("<w:body/>")).toBeNull();
  });

  it("OpenAPI's target_format lists the supported pairs", async () => {
    const doc = (await (await call("/openapi.json")).json()) as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> } } }>;
    };
    const schema = doc.paths["/api/v1/conversion/single"].post.requestBody.content["multipart/form-data"].schema;
    expect(schema.properties.target_format.description).toContain("docx → pdf");
    expect(schema.properties.target_format.description).toContain("avif → pdf");
  });
});
