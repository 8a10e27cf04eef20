import { EngineError } from "../../errors";
import { asEngineError, openPdfDocument } from "../core/document";
import { loadMupdf } from "../core/loader";

/**
 * The page count of a PDF that carries no encryption at all. A file that is
 * already encrypted is refused even when it opens without a password (owner
 * restrictions only): re-encrypting it would silently replace the owner's
 * restrictions, which needs the owner password (Unlock PDF first). Unreadable
 * files are judged by MuPDF, as every other PDF tool judges them.
 */
export async function plainPdfPages(bytes: Uint8Array): Promise<number> {
  const mupdf = await loadMupdf();
  const doc = openPdfDocument(mupdf, bytes);
  try {
    // needsPassword first: any other call on a locked document spoils it (PLATFORM-NOTES).
    if (doc.needsPassword() || (doc.getMetaData("encryption") ?? "None") !== "None") {
      throw new EngineError("encrypted", "The PDF is already encrypted; remove its password with Unlock PDF first.");
    }
    const pages = doc.countPages();
    if (pages === 0) throw new EngineError("corrupt", "The PDF has no readable pages.");
    return pages;
  } catch (err) {
    throw asEngineError(err, "corrupt", "The PDF could not be read");
  } finally {
    doc.destroy();
    mupdf.emptyStore();
  }
}
