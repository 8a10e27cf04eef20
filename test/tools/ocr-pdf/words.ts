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

export { bare, iou, matchWords, overlaps } from "../../support/word-match.mjs";
