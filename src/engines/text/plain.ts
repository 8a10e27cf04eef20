import { decodeUnicodeText } from "./decode";
import { EMPTY_FACTS, type DocumentFacts } from "./facts";
import { textStats } from "./stats";

/** A plain-text upload: one page, counts over the decoded text (UTF-8, or UTF-16/32 by BOM). */
export function readTextFacts(bytes: Uint8Array): DocumentFacts {
  const text = decodeUnicodeText(bytes);
  return { ...EMPTY_FACTS, pages: 1, text: textStats(text) };
}
