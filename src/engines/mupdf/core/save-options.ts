/**
 * How each tool writes its PDF: the one table of MuPDF save options. Every
 * save drops encryption unless asked; MuPDF 1.28 cannot linearize, so none does.
 */
export const SAVE = {
  /**
   * Stamped and redacted documents: unused objects dropped (for redaction
   * this is what removes the replaced content streams from the file),
   * streams compressed, small objects packed into object streams.
   */
  stamped: "garbage=compact,compress,objstms",
  /** Merged and split documents: as stamped, and identical objects shared between the pages brought together. */
  assembled: "garbage=deduplicate,compress,objstms",
  /** Compression at every level: as assembled, identical streams and fonts included (garbage=4). */
  compressed: "garbage=4,compress,compress-fonts,objstms",
  /** Repair: a clean rewrite of what could be read, without repacking objects. */
  repaired: "garbage=compact,compress",
  /** Edit metadata and attachments: a full rewrite, so a removed value or a replaced attachment leaves nothing behind in an older revision. */
  edited: "garbage=compact,compress",
  /** Unlock: the same document without its encryption, otherwise untouched. */
  unlocked: "garbage=compact,encrypt=none",
  /** Convert document's new PDFs (text, Markdown, images): compact and compressed; embedded JPEGs are written as they came. */
  converted: "garbage=compact,compress,objstms",
  /** A long converted text (fonts kept whole): only the objects changed after layout appended, not the file rewritten. */
  convertedUpdate: "incremental,compress",
} as const;
