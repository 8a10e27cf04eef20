import { LIMITS } from "../../config";
import { EngineError } from "../errors";
import { drawable, ensureStampFonts } from "../mupdf/core/fonts";
import { loadMupdf, type Mupdf } from "../mupdf/core/loader";
import { SAVE } from "../mupdf/core/save-options";
import { expandLigatures } from "../text/to-unicode";

// Long documents laid out by MuPDF's HTML engine a stretch at a time. One
// HTML document holds its whole box tree and every page's flow in MuPDF's
// heap (a 1,042-page text took it from 22 to 95 MB before a page was written,
// and 197 MB by the end; each page also re-walked the flow, 51 s in all). So
// the blocks are laid out in chunks of about CHUNK_CHARS of markup, every
// chunk's pages are written into one PDF writer and the chunk is dropped. A
// chunk keeps only the pages before the last point where a block starts a
// page with nothing of the block before it: the blocks from there on are
// laid out again at the top of the next chunk, so pages break exactly where
// one long document would break them. Where a block starts and ends is read
// back from MuPDF (ids on the block and on an empty span at its end).

/** A4 in points: the page of documents made from plain text. */
export const A4: [number, number] = [595.28, 841.89];

export interface Flow {
  /** Markup of the <head>: the page's CSS. */
  head: string;
  /** Block elements in reading order, each starting with its tag (an id is written into it). */
  blocks: Iterable<string>;
  /**
   * Whether a chunk may be cut before this block. A block at the top of a
   * chunk sits where the body starts, which is where it sits at the top of a
   * page only when it has no top margin (MuPDF keeps a heading's margin at
   * a body's start, not always after a page break). Default: every block.
   */
  cutBefore?: (block: string) => boolean;
}

export interface LaidOut {
  pdf: Uint8Array;
  pages: number;
  /** Characters no shipped font can draw (they print as nothing). */
  missing: string[];
  /** The pages' text, form-feed separated: what quality_score compares. */
  text: string;
}

/** Markup per chunk: about 25 pages of text; MuPDF's heap stays near its 22 MiB start. */
const CHUNK_CHARS = 96 * 1024;
/**
 * Fonts are subset (the CJK fallback alone is 3.6 MB) up to this many pages;
 * MuPDF's subsetting holds every page's objects at once (55 KB a page), so a
 * longer document keeps whole fonts.
 */
export const SUBSET_MAX_PAGES = 300;

/** Blocks after a cut that are laid out with it, so that it lies where one whole document would put it. */
const CONTEXT_BLOCKS = 2;

interface Block {
  id: number;
  html: string;
}

type HtmlDocument = ReturnType<Mupdf["Document"]["openDocument"]>;

const FIRST_TAG = /^\s*<([a-zA-Z][\w-]*)/;

/**
 * The start id goes into the block's first tag (a block that does not start
 * with one is wrapped in a div); the end marker, an empty span, after its
 * last text and before its trailing closing tags, where it changes no layout.
 */
function withAnchors(block: string, id: number): string {
  const html = FIRST_TAG.test(block) ? block : `<div>${block}</div>`;
  const open = html.replace(FIRST_TAG, `<$1 id="s${id}"`);
  const tail = /(\s*(<\/[a-zA-Z][\w-]*>\s*)+)$/.exec(open);
  return tail ? `${open.slice(0, tail.index)}<span id="e${id}"></span>${tail[1]}` : open;
}

export async function layoutFlow(flow: Flow, maxPages: number = LIMITS.pdfPages): Promise<LaidOut> {
  const mupdf = await loadMupdf();
  ensureStampFonts(mupdf);
  const buffer = new mupdf.Buffer();
  // Written compressed: the writer's own document holds every page's stream until it is closed.
  const writer = new mupdf.DocumentWriter(buffer, "pdf", SAVE.converted);
  const missing = new Set<string>();
  const texts: string[] = [];
  const source = flow.blocks[Symbol.iterator]();
  let carried: Block[] = [];
  let next = 0;
  let exhausted = false;
  try {
    while (!exhausted || carried.length) {
      const chunk = carried;
      let chars = chunk.reduce((n, b) => n + b.html.length, 0);
      while (!exhausted && chars < CHUNK_CHARS) {
        const r = source.next();
        if (r.done) exhausted = true;
        else {
          chunk.push({ id: next, html: withAnchors(r.value, next++) });
          chars += chunk[chunk.length - 1].html.length;
        }
      }
      if (!chunk.length) break;
      const doc = mupdf.Document.openDocument(new TextEncoder().encode(chunkHtml(flow.head, chunk)), "text/html");
      try {
        doc.layout(A4[0], A4[1], 11);
        const count = doc.countPages();
        const cut = exhausted ? { pages: count, from: chunk.length } : seam(doc, chunk, count, flow.cutBefore ?? (() => true));
        if (texts.length + cut.pages > maxPages) {
          throw new EngineError("too_large", `The document runs past ${maxPages} pages; at most ${maxPages} are made per call. Split it first.`);
        }
        for (let i = 0; i < cut.pages; i++) texts.push(writePage(mupdf, writer, doc, i, missing));
        carried = chunk.slice(cut.from);
      } finally {
        doc.destroy();
        mupdf.emptyStore();
      }
    }
    writer.close();
    const written = buffer.asUint8Array().slice();
    const pdf = finish(mupdf, written, texts.length <= SUBSET_MAX_PAGES);
    return { pdf, pages: texts.length, missing: [...missing], text: texts.join("\f") };
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError("invalid_input", `The document could not be laid out: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    writer.destroy();
    buffer.destroy();
  }
}

const chunkHtml = (head: string, blocks: Block[]) => `<!DOCTYPE html><html><head>${head}</head><body>${blocks.map((b) => b.html).join("")}</body></html>`;

/**
 * Where to cut a chunk that more blocks follow: the last page p (from the
 * end back) that some block i starts while the block before it ends on an
 * earlier page. Pages [0, p) are kept and blocks i… carried. A cut that would
 * keep less than half the pages is not taken (a block longer than a chunk):
 * then every page is kept and the next chunk starts on a new page.
 */
function seam(doc: HtmlDocument, chunk: Block[], count: number, cutBefore: (block: string) => boolean): { pages: number; from: number } {
  const all = { pages: count, from: chunk.length };
  if (count < 2) return all;
  const pages = new Map<string, number>();
  const pageOf = (anchor: string): number => {
    let p = pages.get(anchor);
    if (p === undefined) {
      p = doc.resolveLinkDestination(`#${anchor}`).page;
      pages.set(anchor, p);
    }
    return p;
  };
  const start = (i: number) => pageOf(`s${chunk[i].id}`);
  // A block without an end marker (a rule, a picture) cannot be split: it ends where it starts.
  const end = (i: number) => (chunk[i].html.includes(`id="e${chunk[i].id}"`) ? pageOf(`e${chunk[i].id}`) : start(i));
  // The last blocks of a chunk are laid out at the end of a body (their bottom
  // margins collapse with nothing, a heading has nothing to keep with): the
  // cut is taken before a block that still has CONTEXT_BLOCKS after it.
  for (let i = chunk.length - 1 - CONTEXT_BLOCKS; i > 0; i--) {
    const p = start(i);
    if (p < Math.ceil(count / 2)) break;
    if (p > start(i - 1) && end(i - 1) < p && cutBefore(chunk[i].html)) return { pages: p, from: i };
  }
  return all;
}

/** Draws page i into the writer; answers its text and notes characters no font drew. */
function writePage(mupdf: Mupdf, writer: InstanceType<Mupdf["DocumentWriter"]>, doc: HtmlDocument, i: number, missing: Set<string>): string {
  const page = doc.loadPage(i);
  try {
    const device = writer.beginPage(page.getBounds());
    page.run(device, mupdf.Matrix.identity);
    writer.endPage();
    const st = page.toStructuredText("preserve-whitespace");
    try {
      st.walk({
        onChar(c, _origin, font) {
          if (!drawable(font, c)) missing.add(c);
        },
      });
      return st.asText();
    } finally {
      st.destroy();
    }
  } finally {
    page.destroy();
  }
}

/**
 * Embeds only the glyphs used (when `subset`), and makes ligature glyphs
 * read as their letters (text/to-unicode.ts: "final" drawn with the fi
 * glyph must extract as "final", not "\ufb01nal"). A long document is not
 * rewritten whole: its changed CMaps are appended as an incremental update.
 */
function finish(mupdf: Mupdf, bytes: Uint8Array, subset: boolean): Uint8Array {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  if (!doc) throw new Error("MuPDF's PDF writer produced no PDF");
  try {
    if (subset) doc.subsetFonts();
    const expanded = expandLigatureText(doc);
    if (!subset && !expanded) return bytes;
    const out = doc.saveToBuffer(subset ? SAVE.converted : SAVE.convertedUpdate);
    try {
      return out.asUint8Array().slice();
    } finally {
      out.destroy();
    }
  } finally {
    doc.destroy();
  }
}

type PdfDoc = InstanceType<Mupdf["PDFDocument"]>;

/** Rewrites each font's ToUnicode CMap that maps a glyph to U+FB00-FB06; answers whether any was. */
function expandLigatureText(doc: PdfDoc): boolean {
  const seen = new Set<number>();
  let changed = false;
  const count = doc.countObjects();
  for (let num = 1; num < count; num++) {
    const font = doc.newIndirect(num).resolve();
    if (!font.isDictionary() || !font.get("Type").isName() || font.get("Type").asName() !== "Font") continue;
    const cmap = font.get("ToUnicode");
    if (!cmap.isIndirect() || seen.has(cmap.asIndirect())) continue;
    seen.add(cmap.asIndirect());
    const buf = cmap.readStream();
    const fixed = expandLigatures(buf.asString());
    buf.destroy();
    if (fixed === null) continue;
    cmap.writeStream(new TextEncoder().encode(fixed));
    changed = true;
  }
  return changed;
}
