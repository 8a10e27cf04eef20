import { describe, expect, it } from "vitest";
import { corpusFile, corpusText, itWithCorpus } from "../../support/corpus";
import { mupdfTexts } from "../../support/mupdf";
import { layoutPdf, richPdf, scanOf } from "../../support/pdf.mjs";
import { pageTexts } from "../../support/pdf-text";
import { parseCsv } from "../../support/csv";
import { converted, documentXml, docxRuns, docxText, keptIn, similarity, styledWords, tableCells } from "./support";

describe("Convert document: PDF → DOCX (mupdf-docx)", () => {
  it("keeps runs' font, size, bold, italic, colour and underline, the ruled table, the picture and page sizes", async () => {
    const { bytes, cells, picture } = await richPdf();
    const { body, out } = await converted(bytes, "report.pdf", "docx", "mupdf-docx");
    expect(body.metadata.source_format).toBe("pdf");
    const xml = documentXml(out);
    const runs = docxRuns(xml);
    const run = (text: string) => runs.find((r) => r.text.includes(text));
    expect(run("Quarterly Report")?.props).toMatch(/<w:b\/>|<w:b w:val="true"\/>/);
    expect(run("Quarterly Report")?.props).toContain('w:val="40"'); // 20 pt in half-points
    expect(run("results")?.props).toMatch(/<w:i\/>|<w:i w:val="true"\/>/);
    expect(run("warning")?.props).toMatch(/<w:color w:val="CC0000"\/>/i);
    expect(run("underlined")?.props).toMatch(/<w:u w:val="single"\/>/);
    expect(run("Serif text")?.props).toContain('w:ascii="Times New Roman"');
    expect(run("The ")?.props).toContain('w:ascii="Arial"');
    // The ruled table is a Word table of 3 rows x 3 cells holding the cell texts in order.
    const tables = xml.match(/<w:tbl>[\s\S]*?<\/w:tbl>/g) ?? [];
    expect(tables).toHaveLength(1);
    const table = tables[0] ?? "";
    const rows = table.match(/<w:tr[ >][\s\S]*?<\/w:tr>/g) ?? [];
    expect(rows.map((r) => (r.match(/<w:tc>[\s\S]*?<\/w:tc>/g) ?? []).map((c) => docxText(c).trim()))).toEqual(cells);
    expect(table).toContain("<w:tblBorders>");
    // The picture is inline at its size on the page (EMU: 12,700 a point).
    const extent = /<wp:extent cx="(\d+)" cy="(\d+)"\/>/.exec(xml);
    expect(extent).not.toBeNull();
    expect(Number(extent?.[1]) / 12_700).toBeCloseTo(picture[0], -1);
    expect(Number(extent?.[2]) / 12_700).toBeCloseTo(picture[1], -1);
    // Alignment and indentation, measured against the page's text column (left margin 72 pt).
    const paragraphOf = (text: string) => (xml.match(/<w:p>[\s\S]*?<\/w:p>/g) ?? []).find((p) => docxText(p).includes(text)) ?? "";
    expect(paragraphOf("A centred caption")).toMatch(/<w:jc w:val="center"\/>/);
    // Centred on the page, not on the (narrower) text column: the paragraph reaches into the right margin.
    expect(paragraphOf("A centred caption")).toMatch(/w:right="-\d+"/);
    expect(paragraphOf("An indented note")).toMatch(/<w:ind w:left="720"/);
    expect(paragraphOf("Text after the picture")).toMatch(/<w:jc w:val="left"\/>/);
    // A section per page: A4 portrait, then Letter landscape.
    const sizes = [...xml.matchAll(/<w:pgSz ([^>]*)\/>/g)].map((m) => m[1]);
    expect(sizes).toHaveLength(2);
    expect(sizes[0]).toMatch(/w:w="11906"/);
    expect(sizes[0]).toMatch(/w:h="16838"/);
    expect(sizes[1]).toMatch(/w:w="15840"/);
    expect(sizes[1]).toMatch(/w:orient="landscape"/);
    expect(similarity((await pageTexts(bytes)).join("\n"), docxText(xml))).toBeGreaterThanOrEqual(0.95);
    expect(body.quality_score).toBeGreaterThanOrEqual(0.95);
  });

  it("a scan without readable text keeps its picture, and quality_score says no text is in the DOCX (scans with text: ocr.test.ts)", async () => {
    const blank = await scanOf(await layoutPdf([[{ image: [100, 100, 300, 200] }]]), { dpi: 100 });
    const { body, out } = await converted(blank, "scan.pdf", "docx", "mupdf-docx");
    expect(body.quality_score).toBe(0);
    expect(documentXml(out)).toMatch(/<wp:inline/);
  });

  // pdftotext cannot run inside workerd; the source's text is read by the
  // test-only MuPDF instance (test/support/mupdf.ts), not the app's.
  itWithCorpus.each([
    "markdown/docling/multi_page.pdf",
    "markdown/docling/normal_4pages.pdf",
    "markdown/docling/2305.03393v1-pg9.pdf",
    "markdown/docling/redp5110_sampled.pdf",
    "markdown/docling/code_and_formula.pdf",
  ])("%s: text similarity ≥ 0.95, bold and italic words kept", async (path) => {
    const pdf = await corpusFile(path);
    const { body, out } = await converted(pdf, "doc.pdf", "docx", "mupdf-docx");
    const xml = documentXml(out);
    expect(similarity((await mupdfTexts(pdf)).join("\n"), docxText(xml))).toBeGreaterThanOrEqual(0.95);
    expect(body.quality_score).toBeGreaterThanOrEqual(0.95);
    const { bold, italic } = await styledWords(pdf);
    const runs = docxRuns(xml);
    expect(keptIn(bold, runs, /<w:b\/>/)).toBeGreaterThanOrEqual(0.95);
    expect(keptIn(italic, runs, /<w:i\/>/)).toBeGreaterThanOrEqual(0.95);
  });

  itWithCorpus.each([
    ["tables/camelot/us-030.pdf", "tables/camelot/us-030.expected.csv"],
    ["tables/tabula/twotables.pdf", "tables/tabula/twotables.expected.csv"],
    [
      "tables/tabula/Publication_of_award_of_Bids_for_Transport_Sector__August_2016.pdf",
      "tables/tabula/Publication_of_award_of_Bids_for_Transport_Sector__August_2016.expected.csv",
    ],
    ["tables/tabula/schools.pdf", "tables/tabula/schools.expected.csv"],
    ["tables/tabula/spanning_cells.pdf", "tables/tabula/spanning_cells.expected.csv"],
  ])("%s: the ruled table's cells are Word table cells", async (path, csv) => {
    const pdf = await corpusFile(path);
    const { out } = await converted(pdf, "table.pdf", "docx", "mupdf-docx");
    const cells = new Set(tableCells(documentXml(out)));
    const expected = parseCsv(await corpusText(csv))
      .flat()
      .map((c) => c.replace(/\s+/g, " ").trim())
      .filter((c) => c !== "");
    const found = expected.filter((c) => cells.has(c));
    expect(found.length / expected.length).toBeGreaterThanOrEqual(0.9);
  });
});
