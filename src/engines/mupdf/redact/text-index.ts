import type { Mupdf } from "../core/loader";

type Page = ReturnType<InstanceType<Mupdf["PDFDocument"]>["loadPage"]>;
export type Quad = [number, number, number, number, number, number, number, number];

/**
 * A page's text as one string, with the quad (MuPDF page space, top-left
 * origin) and line number of every UTF-16 unit. Line and block breaks become
 * one space, or nothing after a hyphen, so an entity wrapped over two lines
 * ("4111 1111\n1111 1111", "415-555-\n0132") reads as it was written, and
 * text split into several runs on one line is joined by MuPDF's own spacing.
 */
export interface TextIndex {
  text: string;
  quads: (Quad | null)[];
  lines: number[];
}

export function indexPageText(page: Page): TextIndex {
  const st = page.toStructuredText("");
  const index: TextIndex = { text: "", quads: [], lines: [] };
  const parts: string[] = [];
  let line = 0;
  let last = "";
  // skipFonts: our MuPDF.js patch (scripts/mupdf-factory.mjs) then makes no
  // Font wrapper per character, nearly halving the walk.
  const walker: Parameters<typeof st.walk>[0] & { skipFonts: true } = {
    skipFonts: true,
    onChar(c, _origin, _font, _size, quad) {
      parts.push(c);
      for (let i = 0; i < c.length; i++) {
        index.quads.push(quad as Quad);
        index.lines.push(line);
      }
      last = c;
    },
    endLine() {
      line++;
      if (last === "" || /\s|-|\u00ad/.test(last)) return;
      parts.push(" ");
      index.quads.push(null);
      index.lines.push(-1);
      last = " ";
    },
  };
  try {
    st.walk(walker);
  } finally {
    st.destroy();
  }
  index.text = parts.join("");
  return index;
}

/**
 * One quad per text line the range [start, end) touches: these become the
 * redaction boxes. Upright text gets the union of its characters' boxes;
 * rotated or skewed text a quad from the first character's left edge to the
 * last one's right edge, so the box follows the line instead of covering
 * its whole bounding rectangle (and the neighbours inside it).
 */
export function lineQuads(index: TextIndex, start: number, end: number): Quad[] {
  const byLine = new Map<number, Quad[]>();
  for (let i = start; i < end; i++) {
    const q = index.quads[i];
    if (!q) continue;
    const list = byLine.get(index.lines[i]) ?? [];
    if (list[list.length - 1] !== q) list.push(q);
    byLine.set(index.lines[i], list);
  }
  return [...byLine.values()].map((quads) => (quads.every(isUpright) ? unionQuad(quads) : spanQuad(quads)));
}

const isUpright = (q: Quad): boolean => Math.abs(q[1] - q[3]) < 0.01 && Math.abs(q[0] - q[4]) < 0.01;

function unionQuad(quads: Quad[]): Quad {
  const x0 = Math.min(...quads.map((q) => Math.min(q[0], q[4])));
  const y0 = Math.min(...quads.map((q) => Math.min(q[1], q[3])));
  const x1 = Math.max(...quads.map((q) => Math.max(q[2], q[6])));
  const y1 = Math.max(...quads.map((q) => Math.max(q[5], q[7])));
  return [x0, y0, x1, y0, x0, y1, x1, y1];
}

function spanQuad(quads: Quad[]): Quad {
  const a = quads[0];
  const b = quads[quads.length - 1];
  return [a[0], a[1], b[2], b[3], a[4], a[5], b[6], b[7]];
}
