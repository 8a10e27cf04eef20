// The formats Convert document speaks, named the way callers write them.
// The source format comes from the file name's extension (docs/tools/convert-document.md).

export const SOURCE_FORMATS = ["pdf", "docx", "txt", "md", "html", "jpg", "png", "webp", "gif", "bmp", "tiff", "avif"] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

export const TARGET_FORMATS = ["pdf", "docx", "png", "jpg", "txt", "md"] as const;
export type TargetFormat = (typeof TARGET_FORMATS)[number];

// Spellings of one format; the key is the canonical name.
const SOURCE_EXTENSIONS: Record<string, SourceFormat> = {
  pdf: "pdf",
  docx: "docx",
  txt: "txt",
  text: "txt",
  md: "md",
  markdown: "md",
  html: "html",
  htm: "html",
  jpg: "jpg",
  jpeg: "jpg",
  jpe: "jpg",
  png: "png",
  webp: "webp",
  gif: "gif",
  bmp: "bmp",
  tif: "tiff",
  tiff: "tiff",
  avif: "avif",
};

const TARGET_ALIASES: Record<string, TargetFormat> = {
  pdf: "pdf",
  docx: "docx",
  word: "docx",
  png: "png",
  jpg: "jpg",
  jpeg: "jpg",
  txt: "txt",
  text: "txt",
  md: "md",
  markdown: "md",
};

/** The extension after the last dot, lower case ("" when there is none). */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot > 0
    ? filename
        .slice(dot + 1)
        .trim()
        .toLowerCase()
    : "";
}

/** The source format a filename names, or null when its extension is not one we read. */
export function sourceFormatOf(filename: string): SourceFormat | null {
  return SOURCE_EXTENSIONS[extensionOf(filename)] ?? null;
}

/** The canonical target format for what a caller typed (".PDF", "jpeg", "markdown"), or null. */
export function targetFormatOf(value: string): TargetFormat | null {
  return TARGET_ALIASES[value.trim().toLowerCase().replace(/^\./, "")] ?? null;
}
