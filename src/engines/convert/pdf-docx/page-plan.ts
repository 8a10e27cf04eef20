import { type Glyph, type PageContent, type Picture, type Rect, type TextLine, lineBox, union } from "./model";
import { type ParagraphSpec, paragraphsOf } from "./paragraphs";
import { cellAt, findGrids, type Grid, mergeRows } from "./tables";

// One PDF page as Word will flow it: margins from where the content sits,
// then paragraphs, pictures and tables in MuPDF's reading order, each with
// the gap above it. Glyphs inside a ruled grid leave the text flow and fill
// the table's cells; the table takes the place of the first text it took.

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface TablePlan {
  grid: Grid;
  /** cells[r][c]: paragraphs of the cell starting at row r, column c. */
  cells: ParagraphSpec[][][];
}

export type FlowItem = { top: number; bottom: number } & (
  | { kind: "paragraph"; paragraph: ParagraphSpec }
  | { kind: "image"; picture: Picture }
  | { kind: "table"; table: TablePlan }
);

export interface PagePlan {
  width: number;
  height: number;
  margins: Margins;
  items: FlowItem[];
}

/** Word's margin cap at the bottom: a half-empty last page must not push the next page's content. */
const MAX_BOTTOM = 72;
/** Word's fonts run a little wider than embedded ones; this much slack keeps lines from wrapping early. */
const SLACK = 3;

type Pending = { kind: "text"; lines: TextLine[] } | { kind: "image"; picture: Picture } | { kind: "table"; grid: number };

export function planPage(page: PageContent): PagePlan {
  const grids = findGrids(page.rules);
  const cellLines = grids.map((g) => g.spans.map((row) => row.map(() => [] as TextLine[])));
  const pending: Pending[] = [];
  const placed = new Set<number>();
  for (const block of page.blocks) {
    if (block.kind === "image") {
      pending.push({ kind: "image", picture: block });
      continue;
    }
    const free: TextLine[] = [];
    for (const line of block.lines) {
      const kept = routeLine(line, grids, cellLines, (grid) => {
        if (placed.has(grid)) return;
        placed.add(grid);
        pending.push({ kind: "table", grid });
      });
      if (kept.length) free.push({ glyphs: kept });
    }
    if (!free.length) continue;
    // MuPDF often gives each printed line a block of its own; paragraphsOf
    // decides the breaks from the geometry, so consecutive text flows as one.
    const last = pending[pending.length - 1];
    if (last?.kind === "text") last.lines.push(...free);
    else pending.push({ kind: "text", lines: free });
  }

  // The content's extent sets the margins; paragraphs are measured from them.
  let extent: Rect | null = null;
  for (const p of pending) {
    if (p.kind === "table") extent = union(extent, gridBox(grids[p.grid]));
    else if (p.kind === "image") extent = union(extent, p.picture.bbox);
    else for (const l of p.lines) extent = union(extent, lineBox(l));
  }
  const box = extent ?? [72, 72, page.width - 72, page.height - 72];
  const margins: Margins = {
    top: Math.max(0, box[1]),
    left: Math.max(0, box[0] - 1),
    right: Math.max(0, page.width - box[2] - SLACK),
    bottom: Math.max(0, Math.min(MAX_BOTTOM, page.height - box[3] - 1)),
  };
  const items = pending.flatMap((p): FlowItem[] => {
    if (p.kind === "image") return [{ kind: "image", picture: p.picture, top: p.picture.bbox[1], bottom: p.picture.bbox[3] }];
    if (p.kind === "table") {
      const grid = grids[p.grid];
      return [{ kind: "table", table: tablePlan(grid, cellLines[p.grid]), top: grid.ys[0], bottom: grid.ys[grid.ys.length - 1] }];
    }
    return paragraphsOf(p.lines, [box[0], box[2]], page.width / 2).map((paragraph) => ({
      kind: "paragraph",
      paragraph,
      top: paragraph.bbox[1],
      bottom: paragraph.bbox[3],
    }));
  });
  return { width: page.width, height: page.height, margins, items };
}

function tablePlan(grid: Grid, lines: TextLine[][][]): TablePlan {
  // Row merges are decided once the glyphs are in their cells; a merged cell takes the lines below it.
  for (const [r, c, k] of mergeRows(grid, (row, col) => lines[row][col].some((l) => l.glyphs.length > 0))) {
    for (let i = 1; i < k; i++) lines[r][c].push(...lines[r + i][c].splice(0));
  }
  const byPosition = (a: TextLine, b: TextLine) => a.glyphs[0].baseline - b.glyphs[0].baseline || a.glyphs[0].x0 - b.glyphs[0].x0;
  const cells = lines.map((row, r) =>
    row.map((cell, c) =>
      paragraphsOf(cell.filter((l) => l.glyphs.length).sort(byPosition), [grid.xs[c], grid.xs[c + Math.max(1, grid.spans[r][c])] ?? grid.xs[c + 1]]),
    ),
  );
  return { grid, cells };
}

const gridBox = (g: Grid): Rect => [g.xs[0], g.ys[0], g.xs[g.xs.length - 1], g.ys[g.ys.length - 1]];

/** Sends the glyphs of `line` that fall in a grid to its cells; answers the rest. */
function routeLine(line: TextLine, grids: Grid[], cells: TextLine[][][][], touched: (grid: number) => void): Glyph[] {
  if (!grids.length) return line.glyphs;
  const kept: Glyph[] = [];
  let lastCell: TextLine | null = null;
  for (const glyph of line.glyphs) {
    const x = (glyph.x0 + glyph.x1) / 2;
    const y = (glyph.y0 + glyph.y1) / 2;
    let home: TextLine | null = null;
    for (let g = 0; g < grids.length && !home; g++) {
      const at = cellAt(grids[g], x, y);
      if (!at) continue;
      touched(g);
      const lines = cells[g][at[0]][at[1]];
      // One printed line crossing cells becomes one line per cell.
      if (lastCell && lines[lines.length - 1] === lastCell) home = lastCell;
      else {
        home = { glyphs: [] };
        lines.push(home);
      }
    }
    if (home) {
      home.glyphs.push(glyph);
      lastCell = home;
    } else kept.push(glyph);
  }
  return kept;
}
