import {
  AlignmentType,
  Document,
  HeightRule,
  ImageRun,
  LineRuleType,
  Packer,
  PageOrientation,
  Paragraph,
  type ParagraphChild,
  SectionType,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  TextRun,
  UnderlineType,
  WidthType,
  type ISectionOptions,
} from "docx";
import type { Alignment, ParagraphSpec } from "./paragraphs";
import type { FlowItem, PagePlan, TablePlan } from "./page-plan";

// Page plans into WordprocessingML through the `docx` package: one section
// a page (its size, orientation and margins), paragraphs with their runs,
// pictures inline at their size, ruled tables as Word tables with the
// grid's column widths. Vertical positions become "space before" so the
// page keeps its rhythm when Word flows it.

const twips = (pt: number) => Math.max(0, Math.round(pt * 20));
/** docx sizes pictures in pixels at 96 per inch. */
const px = (pt: number) => Math.max(1, Math.round((pt * 96) / 72));
/** A gap above an item is kept up to this many points; beyond, it is a layout artefact (columns, floats). */
const MAX_GAP = 300;

const ALIGN: Record<Alignment, (typeof AlignmentType)[keyof typeof AlignmentType]> = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  justify: AlignmentType.JUSTIFIED,
};

export async function writeDocx(pages: PagePlan[], title?: string): Promise<Uint8Array> {
  const doc = new Document({ title, creator: "docapi", sections: pages.map(section) });
  return new Uint8Array(await Packer.toArrayBuffer(doc));
}

function section(page: PagePlan): ISectionOptions {
  const landscape = page.width > page.height;
  const [short, long] = landscape ? [page.height, page.width] : [page.width, page.height];
  const m = page.margins;
  const children: (Paragraph | Table)[] = [];
  let y = m.top;
  for (const item of page.items) {
    const before = Math.min(MAX_GAP, Math.max(0, item.top - y));
    children.push(...render(item, before, m.left));
    y = Math.max(y, item.bottom);
  }
  // A section needs a paragraph after a table, and an empty page needs one at all.
  if (!children.length || children[children.length - 1] instanceof Table) children.push(new Paragraph({ children: [] }));
  return {
    properties: {
      type: SectionType.NEXT_PAGE,
      page: {
        size: { width: twips(short), height: twips(long), orientation: landscape ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT },
        margin: { top: twips(m.top), right: twips(m.right), bottom: twips(m.bottom), left: twips(m.left), header: 0, footer: 0 },
      },
    },
    children,
  };
}

function render(item: FlowItem, before: number, left: number): (Paragraph | Table)[] {
  if (item.kind === "paragraph") return [paragraph(item.paragraph, before)];
  if (item.kind === "image") {
    const [x0, y0, x1, y1] = item.picture.bbox;
    const run = new ImageRun({ type: "png", data: item.picture.png, transformation: { width: px(x1 - x0), height: px(y1 - y0) } });
    return [new Paragraph({ children: [run], spacing: { before: twips(before), after: 0 }, indent: { left: twips(x0 - left) } })];
  }
  const spacer = before >= 1 ? [new Paragraph({ children: [], spacing: { before: 0, after: 0, line: twips(before), lineRule: LineRuleType.EXACT } })] : [];
  return [...spacer, table(item.table, left)];
}

function paragraph(p: ParagraphSpec, before: number): Paragraph {
  const children: ParagraphChild[] = p.runs.map(
    (r) =>
      new TextRun({
        text: r.text,
        font: r.font,
        size: Math.max(2, Math.round(r.size * 2)),
        bold: r.bold,
        italics: r.italic,
        color: r.color,
        underline: r.underline ? { type: UnderlineType.SINGLE } : undefined,
      }),
  );
  const firstLine = p.firstLine >= 0 ? { firstLine: twips(p.firstLine) } : { hanging: twips(-p.firstLine) };
  return new Paragraph({
    children,
    alignment: ALIGN[p.alignment],
    indent: { left: twips(p.indentLeft), ...firstLine, ...(p.indentRight ? { right: Math.round(p.indentRight * 20) } : {}) },
    spacing: { before: twips(before), after: 0, ...(p.pitch ? { line: twips(p.pitch), lineRule: LineRuleType.AT_LEAST } : {}) },
  });
}

function table(t: TablePlan, left: number): Table {
  const { xs, ys, spans, rowSpans } = t.grid;
  const widths = xs.slice(1).map((x, i) => twips(x - xs[i]));
  const rows = spans.map((row, r) => {
    const cells: TableCell[] = [];
    row.forEach((span, c) => {
      // Cells merged into one to the left or above are written by that one (docx adds the vMerge continuations).
      if (span <= 0) return;
      const paragraphs = t.cells[r][c].map((p) => paragraph(p, 0));
      cells.push(
        new TableCell({
          children: paragraphs.length ? paragraphs : [new Paragraph({ children: [] })],
          columnSpan: span > 1 ? span : undefined,
          rowSpan: rowSpans[r][c] > 1 ? rowSpans[r][c] : undefined,
          width: { size: widths.slice(c, c + span).reduce((a, b) => a + b, 0), type: WidthType.DXA },
          margins: { top: 0, bottom: 0, left: 40, right: 40 },
        }),
      );
    });
    return new TableRow({ children: cells, height: { value: twips(ys[r + 1] - ys[r]), rule: HeightRule.ATLEAST } });
  });
  return new Table({
    rows,
    columnWidths: widths,
    width: { size: widths.reduce((a, b) => a + b, 0), type: WidthType.DXA },
    indent: { size: twips(xs[0] - left), type: WidthType.DXA },
    layout: TableLayoutType.FIXED,
  });
}
