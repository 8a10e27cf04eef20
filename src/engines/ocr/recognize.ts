import type { GrayImage } from "../quality/ssim";
import { bands } from "./bands";
import { type OcrInstance, withOcr } from "./engine";
import { DEFAULT_OCR_LANGUAGE, type OcrLanguage } from "./languages";
import { type QuarterTurn, rotateGray, shrinkGray } from "./rotate";
import { mergeReadings } from "./merge";
import { arrayOf, START_OF_LINE } from "./tesseract-lib";

/** One recognised word in the pixels of the upright image. */
export interface OcrWord {
  text: string;
  /** x0, y0, x1, y1 in pixels of the upright image, top-left origin. */
  box: [number, number, number, number];
  /** 0..1 */
  confidence: number;
  /** Index of the Tesseract text line the word belongs to, counted over the page. */
  line: number;
}

export interface OcrImageResult {
  words: OcrWord[];
  /** Clockwise turn applied to the scan to stand it upright. */
  rotation: QuarterTurn;
  /** The upright image's size in pixels. */
  width: number;
  height: number;
}

/**
 * A reading of the orientation sample that scores this well (mean word
 * confidence, counting only words that lie level) settles the orientation;
 * upright text scores about 0.95, upside-down or sideways text under 0.5.
 */
const SURE_UPRIGHT = 0.75;
/** Rows of the orientation sample, at about 150 dpi: a dozen lines of body text. */
const SAMPLE_ROWS = 700;

/**
 * Recognises an 8-bit gray image: stands it upright (uprightTurn), then
 * reads words with boxes and confidence, band by band (bands.ts) so the heap
 * stays bounded. Each band is loaded and read without an await in between,
 * so no other request shares the instance mid-band. With several languages
 * the page is read once in each and every text line is taken from the
 * reading that is surest of it (mergeReadings): this Tesseract build loads
 * one model per instance, so "eng+deu" is not one reading.
 */
export async function recognizeGray(gray: GrayImage, languages: readonly OcrLanguage[] = [DEFAULT_OCR_LANGUAGE]): Promise<OcrImageResult> {
  const turn = await uprightTurn(gray, languages[0]);
  const upright = rotateGray(gray, turn);
  const readings: OcrWord[][] = [];
  for (const language of languages) readings.push(await readBands(upright, language));
  const words = readings.length === 1 ? readings[0] : mergeReadings(readings);
  return { words, rotation: turn, width: upright.width, height: upright.height };
}

async function readBands(upright: GrayImage, language: OcrLanguage): Promise<OcrWord[]> {
  const words: OcrWord[] = [];
  let lines = 0;
  for (const band of bands(upright)) {
    const read = await readImage(band.image, language);
    for (const w of read) words.push({ ...w, box: [w.box[0], w.box[1] + band.top, w.box[2], w.box[3] + band.top], line: w.line + lines });
    lines += read.reduce((n, w) => Math.max(n, w.line + 1), 0);
  }
  return words;
}

/**
 * Which quarter turn stands the page upright. Tesseract's own detector
 * (Leptonica's ascender count) misjudges sparse pages, so the densest strip
 * of the page, reduced to about 150 dpi, is read as it stands and, unless
 * that reads well, turned each way; the turn whose words read best and lie
 * level wins. Upright pages, the common case, cost one small reading.
 */
async function uprightTurn(gray: GrayImage, language: OcrLanguage): Promise<QuarterTurn> {
  const sample = densestStrip(shrinkGray(gray, Math.max(1, Math.round(gray.width / 1300))), SAMPLE_ROWS);
  let best: { turn: QuarterTurn; score: number } = { turn: 0, score: levelConfidence(await readImage(sample, language)) };
  for (const turn of [180, 90, 270] as const) {
    if (best.score >= SURE_UPRIGHT) break;
    const score = levelConfidence(await readImage(rotateGray(sample, turn), language));
    if (score > best.score + 0.1) best = { turn, score };
  }
  return best.turn;
}

/** Mean confidence over words of two characters or more, a word standing on end counting as unread. */
function levelConfidence(words: OcrWord[]): number {
  const judged = words.filter((w) => w.text.length >= 2);
  if (!judged.length) return 0;
  return judged.reduce((n, w) => n + (w.box[2] - w.box[0] >= w.box[3] - w.box[1] ? w.confidence : 0), 0) / judged.length;
}

/** The horizontal strip of `rows` rows with the most ink (the whole image when it is shorter). */
function densestStrip(img: GrayImage, rows: number): GrayImage {
  if (img.height <= rows) return img;
  const ink = new Float64Array(img.height + 1);
  for (let y = 0; y < img.height; y++) {
    let n = 0;
    for (let i = y * img.width, end = i + img.width; i < end; i++) if (img.data[i] < 160) n++;
    ink[y + 1] = ink[y] + n;
  }
  let top = 0;
  for (let y = 0; y + rows <= img.height; y += 8) if (ink[y + rows] - ink[y] > ink[top + rows] - ink[top]) top = y;
  return { width: img.width, height: rows, data: img.data.subarray(top * img.width, (top + rows) * img.width) };
}

function readImage(gray: GrayImage, language: OcrLanguage): Promise<OcrWord[]> {
  return withOcr(language, (ocr) => {
    loadGray(ocr, gray);
    return readWords(ocr);
  });
}

function loadGray(ocr: OcrInstance, gray: GrayImage): void {
  const image = new ocr.lib.Image(gray.width, gray.height);
  try {
    // Tesseract takes RGBA words; the gray is expanded straight into its heap
    // (no RGBA copy on the JavaScript side).
    const px = image.data();
    const src = gray.data;
    for (let i = 0; i < px.length; i++) px[i] = (0xff000000 | (src[i] * 0x010101)) >>> 0;
    const loaded = ocr.engine.loadImage(image);
    if (loaded.error) throw new Error(`OCR could not load the page image: ${loaded.error}`);
  } finally {
    image.delete();
  }
}

function readWords(ocr: OcrInstance): OcrWord[] {
  let line = -1;
  const words: OcrWord[] = [];
  for (const item of arrayOf(ocr.engine.getTextBoxes(ocr.lib.TextUnit.Word, () => undefined))) {
    if (item.flags & START_OF_LINE || line < 0) line++;
    const text = item.text.trim();
    if (!text) continue;
    const { left, top, right, bottom } = item.rect;
    words.push({ text, box: [left, top, right, bottom], confidence: item.confidence, line });
  }
  return words;
}
