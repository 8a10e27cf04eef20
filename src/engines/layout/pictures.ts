import { isJunkText, wordLike } from "./junk-text";
import { ocrRawPage } from "./ocr-lines";
import type { RawPage, Rect, ScannedPage, TextLine } from "./types";

// Pictures of text on pages that have a text layer: a screenshot of a table,
// a scanned table pasted into a born-digital report. The text layer says
// nothing of them, so they are read by OCR (when the tool's OCR path is
// there) and their words join the page's lines where the picture is drawn:
// the table readers and the reading order then treat them as any text.

/** A picture smaller than this at its drawn size (points: 1 inch by 0.4 inch) holds no readable text. */
export const PICTURE_MIN_WIDTH = 72;
export const PICTURE_MIN_HEIGHT = 28.8;
/** Pictures read on one page, largest first, and in one call. */
export const PICTURES_PER_PAGE = 4;
export const PICTURES_PER_CALL = 8;
/** A picture covering this share of the page is the page itself: a scan, read as one (document.ts). */
const WHOLE_PAGE = 0.85;
/** Words Tesseract is less sure of than this are left out (0..1). */
const MIN_CONFIDENCE = 0.6;
/** A picture whose confident words are fewer than this, or less than this share of what was read, showed no text (a photo). */
const MIN_WORDS = 2;
const MIN_SURE_SHARE = 0.5;

/** What OCR read in a picture: words in points of the page, with Tesseract's confidence (0..1). */
export interface PictureWords {
  words: { text: string; box: Rect; line: number; confidence: number }[];
}

/** The pictures of page `index` worth reading by OCR; boxes in the page's points. */
export function pictureRegions(page: RawPage | ScannedPage): Rect[] {
  if (page.needsOcr || page.turned) return [];
  const area = page.width * page.height;
  const tables = "tables" in page ? page.tables.map((t) => t.box) : [];
  const holds = (img: Rect, b: Rect) => {
    const [x, y] = [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
    return x >= img[0] && x <= img[2] && y >= img[1] && y <= img[3];
  };
  return page.images
    .map((b): Rect => [Math.max(0, b[0]), Math.max(0, b[1]), Math.min(page.width, b[2]), Math.min(page.height, b[3])])
    .filter((b) => b[2] - b[0] >= PICTURE_MIN_WIDTH && b[3] - b[1] >= PICTURE_MIN_HEIGHT)
    .filter((b) => ((b[2] - b[0]) * (b[3] - b[1])) / Math.max(area, 1) < WHOLE_PAGE)
    .filter((b) => !page.lines.some((l) => holds(b, l.box)) && !tables.some((t) => holds(b, t)))
    .sort((a, b) => (b[2] - b[0]) * (b[3] - b[1]) - (a[2] - a[0]) * (a[3] - a[1]))
    .slice(0, PICTURES_PER_PAGE);
}

/**
 * The lines a picture's words make on page `page`, or none when they are
 * no text: words OCR is unsure of are dropped, and a picture left with
 * fewer than two words, with less than half of what OCR read, or with
 * words that are mostly not words (a few words: any one not a word) (junk-text.ts) showed no text. Lines are
 * built as on a scanned page (ocr-lines.ts).
 */
export function pictureLines(page: RawPage, read: PictureWords): TextLine[] {
  const inked = read.words.filter((w) => /[\p{L}\p{N}]/u.test(w.text));
  const sure = inked.filter((w) => w.confidence >= MIN_CONFIDENCE);
  if (sure.length < MIN_WORDS || sure.length < MIN_SURE_SHARE * read.words.length) return [];
  // Too few words for isJunkText to judge are each a word, or none is taken.
  if (sure.length < 5 && !sure.every((w) => wordLike(w.text))) return [];
  const lines = ocrRawPage(page.index, { width: page.width, height: page.height, words: sure }).lines;
  return isJunkText(lines) ? [] : lines;
}
