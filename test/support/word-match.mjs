// How an OCR text layer matches its source, word by word (the OCR to
// searchable PDF tests, in vitest and in the smoke run): a word is found by
// its letters and placed when its box overlaps the source word's.

/** Letters and digits only, lower case: how a search would compare words. */
export const bare = (/** @type {string} */ s) =>
  s
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

/** @typedef {[number, number, number, number]} Box */
/** @typedef {{ text: string; box: Box }} BoxedWord */

export const overlaps = (/** @type {Box} */ a, /** @type {Box} */ b) =>
  Math.min(a[2], b[2]) > Math.max(a[0], b[0]) && Math.min(a[3], b[3]) > Math.max(a[1], b[1]);

/** Intersection over union of two boxes. */
export function iou(/** @type {Box} */ a, /** @type {Box} */ b) {
  const w = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const h = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const area = (/** @type {Box} */ r) => (r[2] - r[0]) * (r[3] - r[1]);
  return (w * h) / (area(a) + area(b) - w * h);
}

/**
 * The share of source words found in the OCR layer (by text), the share of
 * those whose box overlaps the source word's box (the word sits where it is
 * printed), their mean intersection over union, and the words not found.
 */
export function matchWords(/** @type {BoxedWord[]} */ source, /** @type {BoxedWord[]} */ ocr) {
  const pool = ocr.map((w) => ({ ...w, key: bare(w.text), used: false }));
  let found = 0;
  let placed = 0;
  let sumIou = 0;
  /** @type {string[]} */
  const missing = [];
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
