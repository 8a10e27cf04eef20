// Word and character counts shared by the metadata tool's PDF, DOCX and TXT
// readers, so the three formats count the same way.

export interface TextStats {
  words: number;
  characters: number;
}

type Segmenter = { segment(text: string): Iterable<{ isWordLike?: boolean }> };

// Intl.Segmenter splits CJK runs into words where whitespace splitting
// would count a whole paragraph as one; it exists in workerd and Node.
const segmenter: Segmenter | null = (() => {
  const ctor = (Intl as unknown as { Segmenter?: new (locale: string, opts: { granularity: "word" }) => Segmenter }).Segmenter;
  return ctor ? new ctor("und", { granularity: "word" }) : null;
})();

function countWords(text: string): number {
  if (!segmenter) return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  let words = 0;
  for (const seg of segmenter.segment(text)) if (seg.isWordLike) words++;
  return words;
}

/** Characters are Unicode code points other than whitespace: stable whatever the line layout of the extraction. */
function countCharacters(text: string): number {
  let n = 0;
  for (const ch of text) if (!/\s/u.test(ch)) n++;
  return n;
}

export function textStats(text: string): TextStats {
  return { words: countWords(text), characters: countCharacters(text) };
}

export function addStats(a: TextStats, b: TextStats): TextStats {
  return { words: a.words + b.words, characters: a.characters + b.characters };
}

export const NO_TEXT: TextStats = { words: 0, characters: 0 };
