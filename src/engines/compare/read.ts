import { docxToText } from "../convert/docx-html";
import { readDocxFacts } from "../docx/metadata";
import { EngineError } from "../errors";
import { pdfPageTexts } from "../mupdf/render/page-images";
import { decodeUnicodeText } from "../text/decode";

// Both documents of a comparison read as lines of text. The first file's
// extension decides how both are read (docs/reference/compare.md).

export type CompareFormat = "pdf" | "docx" | "txt";

export interface DocumentLines {
  lines: string[];
  pages: number;
}

/** The format of a file name (.pdf, .docx, .txt), or null. */
export function compareFormatOf(filename: string): CompareFormat | null {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  return ext === "pdf" || ext === "docx" || ext === "txt" ? ext : null;
}

/**
 * The document's lines: trimmed, runs of white space folded to one space,
 * blank lines dropped (layout, not content). Pages: a PDF's own, a DOCX's as
 * Word last laid it out, a text file's form-feed-separated pages.
 */
export async function readLines(bytes: Uint8Array, format: CompareFormat, label: string): Promise<DocumentLines> {
  try {
    switch (format) {
      case "pdf": {
        const { text, pages } = await pdfPageTexts(bytes);
        return { lines: splitLines(text), pages };
      }
      case "docx":
        return { lines: splitLines(await docxToText(bytes)), pages: readDocxFacts(bytes).pages };
      case "txt": {
        const text = decodeUnicodeText(bytes);
        return { lines: splitLines(text), pages: text.split("\f").length };
      }
    }
  } catch (err) {
    // Say which of the two files could not be read.
    if (err instanceof EngineError) throw new EngineError(err.kind, `${label}: ${err.message}`);
    throw err;
  }
}

function splitLines(text: string): string[] {
  return text
    .split(/\r\n?|\n|\f/)
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter((l) => l !== "");
}
