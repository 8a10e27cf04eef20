import { EngineError } from "../../errors";
import { saveCopy, withPdf, type PDFDocument } from "../core/document";
import type { Mupdf } from "../core/loader";
import { SAVE } from "../core/save-options";

/**
 * Runs `work` on an unencrypted PDF. A file encrypted even without an open
 * password is refused too: writing it back would either drop the author's
 * restrictions (what Unlock PDF is for) or re-encrypt values we were asked
 * to show in the clear.
 */
export function withEditablePdf<T>(bytes: Uint8Array, work: (doc: PDFDocument, mupdf: Mupdf) => T | Promise<T>): Promise<T> {
  return withPdf(bytes, (doc, mupdf) => {
    if (doc.getMetaData("encryption") !== "None") throw new EngineError("encrypted", "The PDF is encrypted; remove its encryption with Unlock PDF first.");
    return work(doc, mupdf);
  });
}

export const saveEdited = (doc: PDFDocument): Uint8Array => saveCopy(doc, SAVE.edited);
