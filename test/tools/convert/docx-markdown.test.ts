import { describe, expect, it } from "vitest";
import { corpusFile, corpusText, itWithCorpus } from "../../support/corpus";
import { converted } from "./support";
import { docxPackage, item, NUMBERING, para, run, styled, stylesXml, table } from "./docx-xml";

// DOCX → Markdown (issue #32): every paragraph, list item and table of the
// document comes through once, in document order, tables as GitHub pipe
// tables. The DOCX is written here, XML by hand (docx-xml.ts), so the test's
// own lists are the truth; the Markdown is read back by the small GFM reader
// below, written apart from the engine's writer.

const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** Cells of a pipe-table row: split on unescaped pipes, `\|` read back as `|`. */
const rowCells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));

const isDelimiterRow = (line: string) => /^\|?(\s*:?-+:?\s*\|)+\s*(:?-+:?)?\s*$/.test(line.trim());

/** Every pipe table of a Markdown text: runs of lines starting with `|` whose second line is a delimiter row. */
function pipeTables(md: string): string[][][] {
  const lines = md.split("\n");
  const tables: string[][][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim().startsWith("|") || !isDelimiterRow(lines[i + 1] ?? "")) continue;
    const rows = [rowCells(lines[i])];
    let j = i + 2;
    for (; j < lines.length && lines[j].trim().startsWith("|"); j++) rows.push(rowCells(lines[j]));
    tables.push(rows);
    i = j - 1;
  }
  return tables;
}

/** Inline Markdown as the text a reader sees: emphasis marks out, backslash escapes undone. */
const inlineText = (s: string): string =>
  s
    .replace(/(?<!\\)(\*\*|__|\*|~~)/g, "")
    .replace(/\\(.)/g, "$1")
    .trim();

/** The document's text units in Markdown order: a heading, paragraph or list item each, a table row's cells each. */
function textUnits(md: string): string[] {
  return md
    .split("\n")
    .filter((l) => l.trim() !== "" && !isDelimiterRow(l))
    .flatMap((l) => (l.trim().startsWith("|") ? rowCells(l) : [l.replace(/^\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+)/, "")]))
    .map(inlineText)
    .filter(Boolean);
}

const heading1 = "Quarterly Report";
const heading2 = "Findings in detail";
const bullets = ["Apples from the north orchard", "Pears kept in cold store"];
const steps = ["Count the crates", "Send the invoice"];
const cells = [
  ["Item", "Quantity", "Price"],
  ["Nuts | bolts", "3", "1.50"],
  ["Washers *zinc*", "70", "0.20"],
  ["Rivets", "12", "4.00"],
];
const after = "Text after the table closes the report.";

/** The body in document order, and the text of every unit as a reader should see it. */
function reportDocx(): { bytes: Uint8Array; units: string[] } {
  const units: string[] = [];
  const body: string[] = [];
  const add = (xml: string, ...texts: string[]) => {
    body.push(xml);
    units.push(...texts);
  };
  add(styled("Heading1", heading1), heading1);
  add(para("The first body paragraph introduces the quarter."), "The first body paragraph introduces the quarter.");
  add(
    para([run("The second paragraph mixes "), run("bold", "<w:b/>"), run(" and "), run("italic words", "<w:i/>"), run(" across runs.")]),
    "The second paragraph mixes bold and italic words across runs.",
  );
  // One word split over three runs of different formatting, as Word's spell checker and revisions leave it.
  add(para([run("A word split mid"), run("way", "<w:b/>"), run("through stays whole.")]), "A word split midwaythrough stays whole.");
  add(para("2024. A year that starts a paragraph is no list."), "2024. A year that starts a paragraph is no list.");
  add(
    para("# A hash that starts a paragraph is no heading, and * _ [brackets] stay."),
    "# A hash that starts a paragraph is no heading, and * _ [brackets] stay.",
  );
  add(styled("Heading2", heading2), heading2);
  add(para("Before the lists, a paragraph of its own."), "Before the lists, a paragraph of its own.");
  for (const b of bullets) add(item(1, b), b);
  add(para("Between the lists, another paragraph."), "Between the lists, another paragraph.");
  for (const s of steps) add(item(2, s), s);
  add(table(cells), ...cells.flat());
  add(para(after), after);
  const styles = stylesXml([
    { id: "Normal", name: "Normal", isDefault: true },
    { id: "Heading1", name: "heading 1", basedOn: "Normal" },
    { id: "Heading2", name: "heading 2", basedOn: "Normal" },
  ]);
  return { bytes: docxPackage(body.join(""), { styles, numbering: NUMBERING }), units };
}

describe("Convert document: DOCX → Markdown keeps every block (issue #32)", () => {
  it("every paragraph, list item and table cell once, in document order; the table as a pipe table", async () => {
    const { bytes, units } = reportDocx();
    const { body, out } = await converted(bytes, "report.docx", "md", "mammoth-markdown");
    const md = text(out);
    expect(body.metadata.source_format).toBe("docx");

    const got = textUnits(md);
    expect(got).toEqual(units);

    expect(md).toMatch(new RegExp(`^# ${heading1}$`, "m"));
    expect(md).toMatch(new RegExp(`^## ${heading2}$`, "m"));
    for (const b of bullets) expect(md).toMatch(new RegExp(`^- ${b}$`, "m"));
    steps.forEach((s, i) => expect(md).toMatch(new RegExp(`^${i + 1}\\. ${s}$`, "m")));
    // Neither the year nor the hash turned into Markdown syntax.
    expect(md).not.toMatch(/^2024\. A year/m);
    expect(md).not.toMatch(/^# A hash/m);

    const tables = pipeTables(md);
    expect(tables).toHaveLength(1);
    // GFM reads the first row as the header; the zinc washers' asterisks are text, not emphasis.
    expect(tables[0].map((r) => r.map((c) => c.replace(/\\(.)/g, "$1")))).toEqual(cells);
    expect(body.quality_score).toBeGreaterThanOrEqual(0.95);
  });

  it("a table of one cell (Word's box around content) gives its content, not a table", async () => {
    const inner = [
      ["Tab1", "Tab2"],
      ["A", "B"],
    ];
    const box = `<w:tbl><w:tr><w:tc>${para("Boxed words")}${table(inner)}</w:tc></w:tr></w:tbl>`;
    const { out } = await converted(docxPackage(`${para("Before")}${box}${para("After")}`), "box.docx", "md", "mammoth-markdown");
    const md = text(out);
    expect(textUnits(md)).toEqual(["Before", "Boxed words", ...inner.flat(), "After"]);
    expect(pipeTables(md)).toEqual([inner]);
  });

  // docling's Markdown of the same documents is the truth here: its tables, cell by cell, and its lines in order.
  itWithCorpus("office corpus: the tables of tablecell.docx and word_sample.docx are docling's, and every line of the truth comes in its order", async () => {
    for (const f of ["tablecell.docx", "word_sample.docx"]) {
      const { out } = await converted(await corpusFile(`office/docx/${f}`), f, "md", "mammoth-markdown");
      const md = text(out);
      const truth = await corpusText(`office/docx/${f}.expected.md`);
      expect(pipeTables(md), f).toEqual(pipeTables(truth));
      const got = textUnits(md.replace(/!\[[^\]]*\]\([^)]*\)/g, ""));
      const want = textUnits(truth.replace(/<!--[\s\S]*?-->/g, ""));
      let at = -1;
      for (const w of want) {
        const next = got.indexOf(w, at + 1);
        expect(next, `${f}: "${w}" missing or out of order`).toBeGreaterThan(at);
        at = next;
      }
    }
  });
});
