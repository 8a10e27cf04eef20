import type { Block, Glyph, GlyphStyle, PageContent, Rect, TextBlock } from "../../convert/pdf-docx/model";
import { outsideCalls } from "../core/lifetime";
import type { Mupdf } from "../core/loader";
import type { PDFDocument } from "../core/document";

// Reads one page for PDF to DOCX from MuPDF's structured text: glyphs with
// font, size, weight, slant and colour, image blocks, and vector blocks.
// The walk makes a Font wrapper per character; it runs outside the call's
// wrapper tracking and frees each one at once, or a long document would
// hold millions of wrappers until the call ends (lifetime.ts).

/** Pictures are stored at most at this resolution of their size on the page... */
const PICTURE_DPI = 200;
/** ...and at most this many pixels each (a Worker has 128 MB for everything). */
const PICTURE_PIXELS = 4_000_000;
/** Strokes thinner than this are rules (table borders, underlines). */
const THIN = 3;
const MIN_RULE = 6;

interface FontFacts {
  font: string;
  bold: boolean;
  italic: boolean;
}

export function readPageContent(mupdf: Mupdf, doc: PDFDocument, index: number, withPictures: boolean): PageContent {
  const page = doc.loadPage(index);
  const [bx0, by0, bx1, by1] = page.getBounds();
  const st = page.toStructuredText(withPictures ? "preserve-whitespace,preserve-images,vectors" : "preserve-whitespace,vectors");
  const blocks: Block[] = [];
  const rules: Rect[] = [];
  const fonts = new Map<string, FontFacts>();
  let block: TextBlock | null = null;
  let line: Glyph[] = [];
  try {
    outsideCalls(() =>
      st.walk({
        beginTextBlock() {
          block = { kind: "text", lines: [] };
        },
        endTextBlock() {
          if (block?.lines.length) blocks.push(block);
          block = null;
        },
        beginLine() {
          line = [];
        },
        endLine() {
          if (line.length) block?.lines.push({ glyphs: line });
        },
        onChar(c, origin, font, size, quad, color) {
          const name = font.getName();
          let facts = fonts.get(name);
          if (!facts) {
            facts = fontFacts(name, font.isBold(), font.isItalic());
            fonts.set(name, facts);
          }
          font.destroy();
          const xs = [quad[0], quad[2], quad[4], quad[6]];
          const ys = [quad[1], quad[3], quad[5], quad[7]];
          line.push({
            c,
            ...facts,
            size: Math.round(size * 2) / 2,
            underline: false,
            color: hex(color),
            x0: Math.min(...xs),
            x1: Math.max(...xs),
            y0: Math.min(...ys),
            y1: Math.max(...ys),
            baseline: origin[1],
          });
        },
        onImageBlock(bbox, _transform, image) {
          try {
            const png = pictureOf(mupdf, image, bbox);
            if (png) blocks.push({ kind: "image", bbox: [bbox[0], bbox[1], bbox[2], bbox[3]], png });
          } finally {
            image.destroy();
          }
        },
        onVector(bbox, flags: { isStroked: boolean; isRectangle: boolean }) {
          addRules(rules, [bbox[0], bbox[1], bbox[2], bbox[3]], flags, (bx1 - bx0) * (by1 - by0));
        },
      }),
    );
  } finally {
    st.destroy();
    page.destroy();
  }
  markUnderlines(blocks, rules);
  return { width: bx1 - bx0, height: by1 - by0, blocks, rules };
}

const hex = (color: number[]): string =>
  color
    .slice(0, 3)
    .map((v) =>
      Math.round(Math.max(0, Math.min(1, v)) * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("");

// Base-14 and their usual embedded spellings, as Word's font names.
const WORD_NAMES: [RegExp, string][] = [
  [/^(helvetica|arial)/i, "Arial"],
  [/^(times|tinos)/i, "Times New Roman"],
  [/^(courier|cousine)/i, "Courier New"],
  [/^symbol/i, "Symbol"],
  [/^(zapfdingbats|dingbats)/i, "Wingdings"],
];

/** Family, weight and slant from a PDF font name ("ABCDEF+TimesNewRomanPS-BoldItalicMT") and MuPDF's flags. */
export function fontFacts(name: string, bold: boolean, italic: boolean): FontFacts {
  const bare = name.replace(/^[A-Z]{6}\+/, "");
  const style = bare.includes("-") || bare.includes(",") ? bare.split(/[-,]/).slice(1).join("-") : "";
  let family = bare.split(/[-,]/)[0].replace(/(PS)?MT$|PS$/, "");
  for (const [re, word] of WORD_NAMES) if (re.test(family)) family = word;
  if (family === bare.split(/[-,]/)[0]) family = family.replace(/([a-z])([A-Z])/g, "$1 $2");
  return {
    font: family || "Arial",
    bold: bold || /bold|black|heavy|semibold|demi/i.test(style),
    italic: italic || /italic|oblique/i.test(style),
  };
}

/** A picture as PNG at its displayed size (capped), drawn over white so colour spaces and decode arrays are applied. */
function pictureOf(mupdf: Mupdf, image: InstanceType<Mupdf["Image"]>, bbox: number[]): Uint8Array | null {
  const shownW = ((bbox[2] - bbox[0]) * PICTURE_DPI) / 72;
  const shownH = ((bbox[3] - bbox[1]) * PICTURE_DPI) / 72;
  if (shownW < 2 || shownH < 2) return null;
  let w = Math.min(image.getWidth(), shownW);
  let h = Math.min(image.getHeight(), shownH);
  const shrink = Math.min(1, Math.sqrt(PICTURE_PIXELS / (w * h)));
  w = Math.max(1, Math.round(w * shrink));
  h = Math.max(1, Math.round(h * shrink));
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, w, h], false);
  try {
    pix.clear(255);
    const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
    try {
      device.fillImage(image, [w, 0, 0, h, 0, 0], 1);
      device.close();
    } finally {
      device.destroy();
    }
    return pix.asPNG();
  } finally {
    pix.destroy();
  }
}

function addRules(rules: Rect[], [x0, y0, x1, y1]: Rect, flags: { isStroked: boolean; isRectangle: boolean }, pageArea: number): void {
  const w = x1 - x0;
  const h = y1 - y0;
  if ((h <= THIN && w >= MIN_RULE) || (w <= THIN && h >= MIN_RULE)) {
    rules.push([x0, y0, x1, y1]);
    return;
  }
  // A stroked rectangle is four rules (cell borders drawn as boxes). Filled
  // ones are not: shading rarely lines up with the cells (measured on the
  // table corpus: cells found fell from 0.36 to 0.46 on twotables_2.pdf, with many cells split).
  // Page-sized frames are not a table either.
  if (flags.isRectangle && flags.isStroked && w >= MIN_RULE && h >= MIN_RULE && w * h < pageArea / 2) {
    rules.push([x0, y0, x1, y0], [x0, y1, x1, y1], [x0, y0, x0, y1], [x1, y0, x1, y1]);
  }
}

/** Glyphs with a thin horizontal rule just under their baseline are underlined text (PDFs draw underlines as strokes). */
function markUnderlines(blocks: Block[], rules: Rect[]): void {
  const upright = rules.filter((r) => r[2] - r[0] <= THIN);
  // A horizontal rule with an upright one at either end is a border, not an underline.
  const boxed = (r: Rect) => upright.some((v) => (Math.abs(v[0] - r[0]) <= 2 || Math.abs(v[2] - r[2]) <= 2) && v[1] <= r[3] + 2 && v[3] >= r[1] - 2);
  const flat = rules.filter((r) => r[3] - r[1] <= THIN && r[2] - r[0] >= MIN_RULE && !boxed(r));
  if (!flat.length) return;
  for (const b of blocks) {
    if (b.kind !== "text") continue;
    for (const l of b.lines) {
      for (const g of l.glyphs) {
        const mid = (g.x0 + g.x1) / 2;
        g.underline = flat.some(
          (r) => mid >= r[0] && mid <= r[2] && (r[1] + r[3]) / 2 >= g.baseline - 0.05 * g.size && (r[1] + r[3]) / 2 <= g.baseline + 0.3 * g.size,
        );
      }
    }
  }
}

export type { GlyphStyle };
