import { LIMITS } from "../../config";
import { EngineError } from "../errors";

// How big a text upload may be before it is decoded or laid out. The work a
// text costs is its lines, not its bytes: 30 MB of newlines is 30 million
// paragraphs (an array of them, their markup and MuPDF's boxes took workerd
// past 3 GB). So the bytes are counted in one pass, without decoding or
// splitting anything, into the fewest rows of A4 text they can fill, and a
// text that cannot fit in LIMITS.pdfPages pages is refused before any work.

/** The text layout's page (text-pdf.ts): A4, 11 pt at line-height 1.35, 56/60 pt margins: 725.9 pt / 14.85 pt = 48 rows. */
export const ROWS_PER_PAGE = 48;
/**
 * No row holds more characters than this: the content box is 483 pt wide
 * and the narrowest glyphs (Helvetica's i, l, j at 11 pt) are 2.44 pt. Rows
 * counted with it are a lower bound of the real rows (zero-width marks
 * aside), so no text that would fit is refused.
 */
export const MAX_CHARS_PER_ROW = 200;
/** A tab prints as four spaces (text-pdf.ts). */
const TAB_CHARS = 4;

/**
 * Bytes of source each road lays out at most. A TXT source of 2,000 full
 * pages is about 9.6 million characters; Markdown is lexed whole by marked,
 * whose tokens take about 30 bytes of JavaScript heap per source byte; HTML
 * is decoded, its visible text read for the score and handed to the browser
 * whole.
 */
export const MAX_SOURCE_BYTES = { text: 10 * 1024 * 1024, markdown: 1024 * 1024, html: 10 * 1024 * 1024 } as const;

const NAMES = { text: "text", markdown: "Markdown", html: "HTML" } as const;

export interface TextShape {
  /** Lines (newline-separated; CRLF and CR count once), up to where counting stopped. */
  lines: number;
  /** The fewest rows of the page they can take. */
  rows: number;
  /** The fewest pages. */
  pages: number;
  /** Counting stopped early, the text already needing more than the pages asked about. */
  stopped: boolean;
}

/**
 * Counts lines and the rows they need in one pass over the bytes, in the
 * upload's encoding (UTF-8, or UTF-16/32 by BOM, as text/decode.ts reads
 * it), stopping as soon as more than `maxPages` pages are certain (30 MB of
 * newlines is refused after its first 100 KB).
 */
export function textShape(bytes: Uint8Array, maxPages = Number.POSITIVE_INFINITY): TextShape {
  const { start, size, little } = encodingOf(bytes);
  const unit = unitReader(bytes, size, little);
  const maxRows = maxPages * ROWS_PER_PAGE;
  let lines = 1;
  let rows = 0;
  let chars = 0;
  let previousCr = false;
  const shape = (stopped: boolean): TextShape => ({ lines, rows, pages: Math.ceil(rows / ROWS_PER_PAGE), stopped });
  for (let i = start; i + size <= bytes.length; i += size) {
    const u = size === 1 ? bytes[i] : unit(i);
    if (u === 0x0a || u === 0x0d) {
      // "\r\n" is one line end, as uploadText normalises it.
      if (!(u === 0x0a && previousCr)) {
        rows += chars > MAX_CHARS_PER_ROW ? Math.ceil(chars / MAX_CHARS_PER_ROW) : 1;
        chars = 0;
        if (rows > maxRows) return shape(true);
        lines++;
      }
      previousCr = u === 0x0d;
      continue;
    }
    previousCr = false;
    if (u === 0x09) chars += TAB_CHARS;
    else if (isCharStart(u, size)) {
      // A line long enough to pass the bound on its own stops the count too.
      if (++chars % MAX_CHARS_PER_ROW === 0 && rows + chars / MAX_CHARS_PER_ROW > maxRows) {
        rows += chars / MAX_CHARS_PER_ROW;
        return shape(true);
      }
    }
  }
  rows += chars > MAX_CHARS_PER_ROW ? Math.ceil(chars / MAX_CHARS_PER_ROW) : 1;
  return shape(false);
}

/** UTF-8 continuation bytes and UTF-16 low surrogates continue a character. */
function isCharStart(u: number, size: number): boolean {
  if (size === 1) return (u & 0xc0) !== 0x80;
  if (size === 2) return u < 0xdc00 || u > 0xdfff;
  return true;
}

/** The sniffing of text/decode.ts, on bytes: BOMs, else where the zero bytes fall. */
function encodingOf(b: Uint8Array): { start: number; size: 1 | 2 | 4; little: boolean } {
  const at = (i: number) => b[i] ?? -1;
  if (at(0) === 0 && at(1) === 0 && at(2) === 0xfe && at(3) === 0xff) return { start: 4, size: 4, little: false };
  if (at(0) === 0xff && at(1) === 0xfe && at(2) === 0 && at(3) === 0) return { start: 4, size: 4, little: true };
  if (at(0) === 0xfe && at(1) === 0xff) return { start: 2, size: 2, little: false };
  if (at(0) === 0xff && at(1) === 0xfe) return { start: 2, size: 2, little: true };
  if (at(0) === 0 && at(1) === 0 && at(2) === 0 && at(3) !== 0) return { start: 0, size: 4, little: false };
  if (at(0) !== 0 && at(1) === 0 && at(2) === 0 && at(3) === 0) return { start: 0, size: 4, little: true };
  if (at(0) === 0 && at(1) !== 0) return { start: 0, size: 2, little: false };
  if (at(0) !== 0 && at(1) === 0) return { start: 0, size: 2, little: true };
  return { start: 0, size: 1, little: true };
}

function unitReader(b: Uint8Array, size: 1 | 2 | 4, little: boolean): (i: number) => number {
  if (size === 1) return (i) => b[i];
  if (size === 2) return little ? (i) => b[i] | (b[i + 1] << 8) : (i) => (b[i] << 8) | b[i + 1];
  return little
    ? (i) => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0
    : (i) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
}

const MiB = 1024 * 1024;

/**
 * Refuses, before anything is decoded, a source the road cannot lay out
 * within its bounds: more bytes than MAX_SOURCE_BYTES, or (plain text, whose
 * lines are its paragraphs) more lines than LIMITS.pdfPages pages can hold.
 * Markdown's blank lines print nothing, so only its bytes bound it here; its
 * pages are counted as it is laid out (flow-layout.ts).
 */
export function checkTextSource(bytes: Uint8Array, kind: keyof typeof MAX_SOURCE_BYTES): void {
  if (kind === "text") {
    const shape = textShape(bytes, LIMITS.pdfPages);
    if (shape.pages > LIMITS.pdfPages) {
      const where = shape.stopped ? `its first ${shape.lines} line(s) already fill` : `its ${shape.lines} lines fill`;
      throw new EngineError(
        "too_large",
        `The text needs more than ${LIMITS.pdfPages} pages of A4: ${where} at least ${shape.rows} rows, ${ROWS_PER_PAGE} a page. At most ${LIMITS.pdfPages} pages are made per call; split it first.`,
      );
    }
  }
  const max = MAX_SOURCE_BYTES[kind];
  if (bytes.byteLength > max) {
    throw new EngineError(
      "too_large",
      `The ${NAMES[kind]} file is ${Math.round((bytes.byteLength / MiB) * 10) / 10} MiB; at most ${max / MiB} MiB are laid out per call.`,
    );
  }
}

/** HTML sources for the browser: bounded by bytes only (the browser lays them out outside the isolate). */
export const checkHtmlSource = (bytes: Uint8Array): void => checkTextSource(bytes, "html");
