import type { PDFDocument } from "../core/document";

type PDFObject = ReturnType<PDFDocument["newNull"]>;

export const INHERITABLE = ["Resources", "MediaBox", "CropBox", "Rotate"] as const;

/**
 * Makes a page object self-contained: attributes it inherits from the page
 * tree are copied onto it and /Parent is removed, so grafting the page into
 * another document copies this page and nothing of the source's page tree.
 */
export function detachPage(page: PDFObject): void {
  for (const key of INHERITABLE) {
    if (page.get(key).isNull()) {
      const inherited = page.getInheritable(key);
      if (!inherited.isNull()) page.put(key, inherited);
    }
  }
  page.delete("Parent");
}
