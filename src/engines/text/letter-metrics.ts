// Shares of the font size that a letter's box spans in the fonts scans are
// usually set in (Helvetica, Arial and Times are close): where OCR reads
// no font, a word's size and baseline are worked out from these.

/** Cap height (and figures). */
export const CAP = 0.72;
/** x-height: a word of lower-case letters without ascenders is this tall. */
export const X_HEIGHT = 0.52;
/** How far descenders (g, p, y) reach below the baseline. */
export const DESCENT = 0.21;
