import { withMupdf } from "../../support/mupdf";

// The words of a PDF page with their boxes, read by the test-only MuPDF:
// characters of a structured-text line split at spaces, each word's box the
// union of its characters' quads (points, top-left origin).

export interface BoxedWord {
  text: string;
  box: [number, number, number, number];
}

export function pageWords(bytes: Uint8Array, index = 0): Promise<BoxedWord[]> {
  return withMupdf((mupdf) => {
    const doc = mupdf.Document.openDocument(bytes, "application/pdf");
    const words: BoxedWord[] = [];
    try {
      const page = doc.loadPage(index);
      const text = page.toStructuredText("preserve-whitespace");
      let word: BoxedWord | null = null;
      const flush = () => {
        if (word?.text) words.push(word);
        word = null;
      };
      text.walk({
        onChar(c: string, _origin: unknown, _font: unknown, _size: number, quad: number[]) {
          if (/\s/.test(c)) return flush();
          const xs = [quad[0], quad[2], quad[4], quad[6]];
          const ys = [quad[1], quad[3], quad[5], quad[7]];
          const box: BoxedWord["box"] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
          if (!word) word = { text: c, box };
          else
            word = {
              text: word.text + c,
              box: [Math.min(word.box[0], box[0]), Math.min(word.box[1], box[1]), Math.max(word.box[2], box[2]), Math.max(word.box[3], box[3])],
            };
        },
        endLine: flush,
      });
      flush();
      text.destroy();
      page.destroy();
    } finally {
      doc.destroy();
    }
    return words;
  });
}

/** Letters and digits only, lower case: how a search would compare words. */
export const bare = (s: string): string =>
  s
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

export function overlaps(a: BoxedWord["box"], b: BoxedWord["box"]): boolean {
  return Math.min(a[2], b[2]) > Math.max(a[0], b[0]) && Math.min(a[3], b[3]) > Math.max(a[1], b[1]);
}

/** Intersection over union of two boxes. */
export function iou(a: BoxedWord["box"], b: BoxedWord["box"]): number {
  const w = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const h = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const area = (r: BoxedWord["box"]) => (r[2] - r[0]) * (r[3] - r[1]);
  return (w * h) / (area(a) + area(b) - w * h);
}

/**
 * How the OCR layer matches the source: the share of source words found in
 * it (by text), the share of those whose box overlaps the source word's
 * box (the word sits where it is printed), and their mean intersection over union.
 */
export function matchWords(source: BoxedWord[], ocr: BoxedWord[]): { found: number; placed: number; meanIou: number; missing: string[] } {
  const pool = ocr.map((w) => ({ ...w, key: bare(w.text), used: false }));
  let found = 0;
  let placed = 0;
  let sumIou = 0;
  const missing: string[] = [];
  for (const w of source) {
    const key = bare(w.text);
    if (!key) continue;
    const same = pool.filter((p) => !p.used && p.key === key);
    const hit = same.find((p) => overlaps(p.box, w.box)) ?? same[0];
    if (!hit) {
      missing.push(w.text);
      continue;
    }
    hit.used = true;
    found++;
    if (overlaps(hit.box, w.box)) placed++;
    sumIou += iou(hit.box, w.box);
  }
  const total = source.filter((w) => bare(w.text)).length;
  return { found: found / total, placed: placed / Math.max(1, found), meanIou: sumIou / Math.max(1, found), missing };
}
