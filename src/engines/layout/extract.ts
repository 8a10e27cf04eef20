import { isMupdfError } from "../mupdf/core/document";
import type { Mupdf } from "../mupdf/core/loader";
import { fixLamAlef, isRtlText } from "./bidi";
import { type Glyph, union } from "./geometry";
import { coversPage, isJunkText } from "./junk-text";
import { joinBaselines, splitSegments, toLine } from "./lines";
import { dominant, type Orientation, orientationOf, rotate } from "./orientation";
import type { RawPage, Rect, Style, TextLine } from "./types";

type Page = ReturnType<InstanceType<Mupdf["PDFDocument"]>["loadPage"]>;

// "vectors" makes MuPDF report filled and stroked paths as blocks (ruling
// lines for lattice tables); "preserve-images" reports image blocks; spaces
// are kept so word gaps stay visible.
// "preserve-spans" starts a new line at every change of font, so one font
// per line (read from the JSON export) gives every character its style.
const STEXT_OPTIONS = "preserve-whitespace,preserve-images,vectors,preserve-spans";
const WHOLE_LINES = "preserve-whitespace,preserve-images,vectors";

/** Rules are thinner than this (points). */
const RULE_THICKNESS = 2.5;
/** Images smaller than this (points) are ornaments, not figures. */
const MIN_IMAGE = 24;

interface Link {
  box: Rect;
  uri: string;
}

/**
 * Reads one page into plain data: text segments with style and links,
 * candidate rules, image boxes. MuPDF objects made here are destroyed here,
 * so a long document streams page by page in bounded WASM memory.
 */
export function extractPage(page: Page, index: number): RawPage {
  const [px0, py0, px1, py1] = page.getBounds();
  nameType3Fonts(page);
  const links = readLinks(page);
  let scan = scanText(page, STEXT_OPTIONS, links, (px1 - px0) * (py1 - py0));
  // Split at every font change, a right-to-left line also splits at every
  // change of direction, and the spaces between the runs lose their place:
  // such pages are read again as whole lines (one style a line).
  if (
    isRtlText(
      Object.values(scan.raw)
        .flat(2)
        .map((g) => g.c)
        .join(""),
    )
  )
    scan = scanText(page, WHOLE_LINES, links, (px1 - px0) * (py1 - py0));
  const { raw, rules, images, shapes } = scan;
  // A page whose text mostly runs down or up (a table set sideways) is read
  // turned upright; text at other angles on it (margin stamps) is left out.
  const turn = dominant(raw);
  const [w, h] = [px1 - px0, py1 - py0];
  const upright = (b: Rect) => rotate(b, turn, w, h);
  const glyphs = raw[turn].map((l) => l.map((g) => ({ ...g, box: upright(g.box) })));
  const read = joinBaselines(glyphs.flatMap(splitSegments).map(toLine));
  // A scan under a junk text layer is a scan: the junk is dropped and the page goes to OCR.
  const junk = coversPage(images, w, h) && isJunkText(read);
  const lines = junk ? [] : read;
  const hasText = lines.some((l) => l.words.length > 0);
  const [width, height] = turn === "up" ? [w, h] : [h, w];
  const graphics = drawings(shapes.map(upright), lines);
  const out: RawPage = {
    index,
    width,
    height,
    lines,
    rules: rules.map(upright),
    images: images.map(upright),
    graphics,
    needsOcr: !hasText && images.length > 0,
  };
  if (turn !== "up") out.turned = true;
  return out;
}

interface Scan {
  raw: Record<Orientation, Glyph[][]>;
  rules: Rect[];
  images: Rect[];
  /** Filled shapes too thick to be rules. */
  shapes: Rect[];
}

const MAX_SHAPES = 2000;
/** Shapes this close (points) belong to one drawing. */
const DRAWING_GAP = 6;

/**
 * Filled shapes gathered into drawings (the bars of a chart are one), left
 * out where text is set over them: a shaded box behind a sidebar, a code
 * listing or a table's header row is a background, not a picture.
 */
function drawings(shapes: Rect[], lines: TextLine[]): Rect[] {
  // Gathering is quadratic in the worst case: a page of thousands of shapes (a map) orders without them.
  if (shapes.length > MAX_SHAPES) return [];
  const groups: Rect[] = [];
  for (const s of [...shapes].sort((a, b) => a[1] - b[1])) {
    let box = s;
    for (let i = groups.length - 1; i >= 0; i--) {
      const g = groups[i];
      if (box[0] - g[2] <= DRAWING_GAP && g[0] - box[2] <= DRAWING_GAP && box[1] - g[3] <= DRAWING_GAP && g[1] - box[3] <= DRAWING_GAP) {
        box = union(box, g);
        groups.splice(i, 1);
      }
    }
    groups.push(box);
  }
  const holds = (g: Rect, l: TextLine) => {
    const [x, y] = [(l.box[0] + l.box[2]) / 2, (l.box[1] + l.box[3]) / 2];
    return x >= g[0] && x <= g[2] && y >= g[1] && y <= g[3];
  };
  // A short bar of a chart counts (as wide as a figure, a few points tall); a bullet square does not.
  const [w, h] = [(g: Rect) => g[2] - g[0], (g: Rect) => g[3] - g[1]];
  return groups.filter((g) => Math.max(w(g), h(g)) >= MIN_IMAGE && w(g) * h(g) >= (MIN_IMAGE * MIN_IMAGE) / 2 && !lines.some((l) => holds(g, l)));
}

function scanText(page: Page, options: string, links: Link[], pageArea: number): Scan {
  const st = page.toStructuredText(options);
  const scan: Scan = { raw: { up: [], cw: [], ccw: [] }, rules: [], images: [], shapes: [] };
  let line: Glyph[] | null = null;
  let orientation: Orientation | null = null;
  let style = REGULAR;
  let lineIndex = -1;
  try {
    const styles = lineStyles(st);
    // skipFonts: our MuPDF.js patch then makes no Font wrapper per character.
    // Each wrapper is kept until the call ends (mupdf/lifetime.ts): millions
    // of them for a long document.
    const walker: Parameters<typeof st.walk>[0] & { skipFonts: true } = {
      skipFonts: true,
      beginLine(_box, _wmode, dir) {
        lineIndex++;
        style = styles[lineIndex] ?? REGULAR;
        orientation = orientationOf(dir);
        line = orientation ? [] : null;
      },
      onChar(c, _origin, _font, size, quad) {
        if (!line) return;
        const box: Rect = [Math.min(quad[0], quad[4]), Math.min(quad[1], quad[3]), Math.max(quad[2], quad[6]), Math.max(quad[5], quad[7])];
        line.push({ c, box, size, style, link: linkAt(links, box) });
      },
      endLine() {
        if (line?.length && orientation === "up") proveMonospace(line);
        if (line?.length && orientation) {
          const lines = scan.raw[orientation];
          const prev = lines[lines.length - 1];
          if (prev && isLigatureTail(prev, line)) prev.push(...line);
          else lines.push(fixLamAlef(unmapped(line)));
        }
        line = null;
      },
      onImageBlock(box) {
        if (box[2] - box[0] >= MIN_IMAGE && box[3] - box[1] >= MIN_IMAGE) scan.images.push([box[0], box[1], box[2], box[3]]);
      },
      onVector(box, flags: { isStroked: boolean; isRectangle: boolean }) {
        const rect: Rect = [box[0], box[1], box[2], box[3]];
        scan.rules.push(...rulesOf(rect, flags, pageArea));
        const [w, h] = [rect[2] - rect[0], rect[3] - rect[1]];
        if (Math.min(w, h) > RULE_THICKNESS && w * h <= pageArea * 0.8) scan.shapes.push(rect);
      },
    };
    st.walk(walker);
  } finally {
    st.destroy();
  }
  return scan;
}

/**
 * A ligature ("fl") is one glyph, which MuPDF reports as its letters: the
 * first with the glyph's advance, the rest with none at its right edge.
 * Chromium draws ligatures from a font of their own, so under
 * "preserve-spans" each letter arrives as a line of its own, and the
 * zero-width tail, sorted by position, lands after the word it belongs in
 * ("infuence ... l"). It goes back onto the line it continues.
 */
function isLigatureTail(prev: Glyph[], line: Glyph[]): boolean {
  if (!line.every((g) => g.box[2] - g.box[0] < 0.05 && g.c.trim() !== "")) return false;
  const last = prev[prev.length - 1];
  const g = line[0];
  return Math.abs(last.box[2] - g.box[0]) < 0.5 && Math.min(last.box[3], g.box[3]) - Math.max(last.box[1], g.box[1]) > 0.5 * (g.box[3] - g.box[1]);
}

/** Letters a proportional font sets narrower than the others. */
const NARROW = /[ijlftrI]/;

/**
 * Code listings set in a fixed-pitch font whose name says nothing of it
 * (IBM's "BookMasterGothic"): every Latin letter of a line advances the
 * same width, "i" as much as "S". The proof marks the font's style, which
 * every line of that font on the page shares (lineStyles caches one object
 * per font), so a line without a narrow letter ("usage,") follows. Lines of
 * CJK text (fixed pitch too) prove nothing: their letters are not Latin.
 */
function proveMonospace(line: Glyph[]): void {
  const style = line[0]?.style;
  if (!style || style.mono || style === REGULAR) return;
  const ink = line.filter((g) => g.c.trim() !== "");
  const letters = ink.filter((g) => /[A-Za-z]/.test(g.c));
  if (letters.length < 6 || letters.length < 0.5 * ink.length || !letters.some((g) => NARROW.test(g.c))) return;
  const widths = letters.map((g) => g.box[2] - g.box[0]);
  if (Math.max(...widths) <= 1.03 * Math.min(...widths)) style.mono = true;
}

const UNMAPPED = "\ufffd";

/**
 * U+FFFD stands for a glyph whose font maps to no character. One opening a
 * line of real text and set apart from it is a bullet from a symbol font;
 * any other reads as nothing.
 */
function unmapped(line: Glyph[]): Glyph[] {
  if (!line.some((g) => g.c === UNMAPPED)) return line;
  // A lone glyph or two on a line of their own (MuPDF splits a bullet in a
  // smaller symbol font from its text) is a bullet too.
  const ink = line.filter((g) => g.c.trim());
  if (ink.length <= 2 && ink.every((g) => g.c === UNMAPPED)) return [{ ...ink[0], c: "•", box: ink.map((g) => g.box).reduce(union) }];
  const first = line.findIndex((g) => g.c.trim() !== "");
  const next = line[first + 1];
  const apart = next && (next.c.trim() === "" || next.box[0] - line[first].box[2] > 0.25 * next.size);
  const bullet = first >= 0 && line[first].c === UNMAPPED && apart && line.slice(first + 1).some((g) => g.c.trim() && g.c !== UNMAPPED);
  return line.flatMap((g, i) => (g.c !== UNMAPPED ? [g] : bullet && i === first ? [{ ...g, c: "•" }] : []));
}

type PdfObject = ReturnType<ReturnType<Page["getObject"]>["get"]>;

/**
 * A Type 3 font without a /Name (Chromium prints every CFF or Type 1 font
 * it uses, bold and regular alike, as one) reaches MuPDF as "Unnamed-T3",
 * normal weight, so a bold heading set at body size reads as body text.
 * Its FontDescriptor still names the face ("AAAAAA+NimbusRoman-Bold"): that
 * name becomes the font's /Name, in memory only, before the page is read,
 * and the style hints read it as for any other font. Forms a few levels
 * deep are visited for their own fonts.
 */
function nameType3Fonts(page: Page): void {
  const visit = (resources: PdfObject, depth: number) => {
    if (!resources.isDictionary()) return;
    const fonts = resources.get("Font");
    if (fonts.isDictionary())
      fonts.forEach((value) => {
        const font = value.resolve();
        if (!font.isDictionary() || font.get("Subtype").asName() !== "Type3" || font.get("Name").isName()) return;
        const name = font.get("FontDescriptor").get("FontName");
        if (name.isName()) font.put("Name", name);
      });
    const forms = resources.get("XObject");
    if (depth < 3 && forms.isDictionary())
      forms.forEach((value) => {
        const form = value.resolve();
        if (form.isStream() && form.get("Subtype").asName() === "Form") visit(form.get("Resources"), depth + 1);
      });
  };
  try {
    visit(page.getObject().getInheritable("Resources"), 0);
  } catch (err) {
    // A malformed resource tree names nothing; the page is still read.
    if (!isMupdfError(err)) throw err;
  }
}

function readLinks(page: Page): Link[] {
  const out: Link[] = [];
  for (const link of page.getLinks()) {
    try {
      const uri = link.getURI();
      if (link.isExternal() && /^(https?|mailto):/i.test(uri)) {
        const b = link.getBounds();
        out.push({ box: [b[0], b[1], b[2], b[3]], uri });
      }
    } finally {
      link.destroy();
    }
  }
  return out;
}

function linkAt(links: Link[], box: Rect): string | undefined {
  if (!links.length) return undefined;
  const x = (box[0] + box[2]) / 2;
  const y = (box[1] + box[3]) / 2;
  return links.find((l) => x >= l.box[0] && x <= l.box[2] && y >= l.box[1] && y <= l.box[3])?.uri;
}

const REGULAR: Style = { bold: false, italic: false, mono: false };

interface JsonFont {
  name?: string;
  family?: string;
  weight?: string;
  style?: string;
}

interface JsonPage {
  blocks?: { type?: string; lines?: { font?: JsonFont }[] }[];
}

/**
 * The style of every text line, in walk order, from MuPDF's JSON export:
 * its weight, slant and family, plus name hints (many subset fonts carry
 * weight and slant only in their names).
 */
function lineStyles(st: { asJSON(scale?: number): string }): Style[] {
  const page = JSON.parse(st.asJSON()) as JsonPage;
  const cache = new Map<string, Style>();
  const out: Style[] = [];
  for (const block of page.blocks ?? []) {
    if (block.type !== "text") continue;
    for (const line of block.lines ?? []) {
      const f = line.font ?? {};
      const key = `${f.name}|${f.weight}|${f.style}|${f.family}`;
      let style = cache.get(key);
      if (!style) {
        const name = f.name ?? "";
        style = {
          bold: f.weight === "bold" || /bold|black|heavy|semibold|demi|-bd\b|\.b$/i.test(name),
          italic: f.style === "italic" || /italic|oblique|-it\b|\.i$/i.test(name),
          mono: f.family === "monospace" || /courier|mono|consol|code|menlo|inconsolata|typewriter|\bcmtt/i.test(name),
        };
        cache.set(key, style);
      }
      out.push(style);
    }
  }
  return out;
}

/**
 * Only thin shapes are rules; a rectangle contributes its four edges (ruled
 * tables drawn as cell boxes, shaded header rows). A shape covering most of
 * the page is a background, not a table.
 */
function rulesOf(box: Rect, flags: { isStroked: boolean; isRectangle: boolean }, pageArea: number): Rect[] {
  const w = box[2] - box[0];
  const h = box[3] - box[1];
  if (Math.min(w, h) <= RULE_THICKNESS) return Math.max(w, h) >= 4 ? [box] : [];
  // Filled boxes count too: many tables separate a shaded header row by its
  // fill alone. Shading around a code listing makes a one-column grid, which
  // the lattice reader rejects as a frame.
  if (!flags.isRectangle || w * h > pageArea * 0.8) return [];
  const [x0, y0, x1, y1] = box;
  return [
    [x0, y0, x1, y0],
    [x0, y1, x1, y1],
    [x0, y0, x0, y1],
    [x1, y0, x1, y1],
  ];
}
