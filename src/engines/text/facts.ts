import { NO_TEXT, type TextStats } from "./stats";

/** What the metadata tool reports, whatever the format (PDF, DOCX, TXT). */
export interface DocumentFacts {
  pages: number;
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string[];
  isEncrypted: boolean;
  imageCount: number;
  text: TextStats;
  creationDate: string | null;
  modificationDate: string | null;
}

export const EMPTY_FACTS: DocumentFacts = {
  pages: 0,
  title: null,
  author: null,
  subject: null,
  keywords: [],
  isEncrypted: false,
  imageCount: 0,
  text: NO_TEXT,
  creationDate: null,
  modificationDate: null,
};

/** "a, b; c" or one keyword per line -> ["a", "b", "c"], duplicates dropped. */
export function splitKeywords(value: string | null | undefined): string[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(/[,;\r\n]+/)
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ];
}
