import { EngineError } from "../../errors";
import { saslprep } from "../../text/saslprep";
import { asEngineError, openPdfDocument } from "../core/document";
import { loadMupdf } from "../core/loader";
import { SAVE } from "../core/save-options";

export interface UnlockOutcome {
  data: Uint8Array;
  /** "Standard V5 R6 256-bit AES", or null when the input was not encrypted. */
  encryption: string | null;
  /** Which password matched: "user", "owner" or both. */
  matched: "user" | "owner" | "both" | null;
  pages: number;
}

// authenticatePassword: 0 wrong, 1 none needed, 2 user, 4 owner, 6 both.
const MATCH: Record<number, UnlockOutcome["matched"]> = { 2: "user", 4: "owner", 6: "both" };

/**
 * Removes encryption (RC4 40/128, AES-128, AES-256) given the user or the
 * owner password, like `qpdf --decrypt --password=...`. The password must
 * match one of the two, also for files that open without one (permissions
 * only): removing those restrictions needs the owner password. A file that
 * is not encrypted comes back unchanged whatever the password.
 */
export async function unlockPdf(bytes: Uint8Array, password: string): Promise<UnlockOutcome> {
  // The prepared form first (PDF 2.0 for AES-256), then the password as typed
  // (older revisions, and producers that did not prepare it). A failed
  // attempt spoils the document, so each try opens it afresh.
  const candidates = [...new Set([saslprep(password), password])];
  for (const [i, candidate] of candidates.entries()) {
    const outcome = await unlockWith(bytes, candidate, i === candidates.length - 1);
    if (outcome) return outcome;
  }
  throw new Error("unlockPdf: no candidate password was tried");
}

/** One attempt; null when the password is wrong and `last` is false. */
async function unlockWith(bytes: Uint8Array, password: string, last: boolean): Promise<UnlockOutcome | null> {
  const mupdf = await loadMupdf();
  const doc = openPdfDocument(mupdf, bytes);
  try {
    // needsPassword and then authenticatePassword come first: any other call
    // on a locked document spoils it (PLATFORM-NOTES).
    const locked = doc.needsPassword();
    const encryption = locked ? null : (doc.getMetaData("encryption") ?? "None");
    if (!locked && encryption === "None") return { data: bytes, encryption: null, matched: null, pages: doc.countPages() };
    const matched = MATCH[doc.authenticatePassword(password)] ?? null;
    if (!matched && !last) return null;
    if (!matched) throw new EngineError("wrong_password", "The password matches neither the user nor the owner password of this PDF.");
    const pages = doc.countPages();
    if (pages === 0) throw new EngineError("corrupt", "The PDF has no readable pages.");
    const buf = doc.saveToBuffer(SAVE.unlocked);
    try {
      return { data: buf.asUint8Array().slice(), encryption: doc.getMetaData("encryption") ?? encryption, matched, pages };
    } finally {
      buf.destroy();
    }
  } catch (err) {
    throw asEngineError(err); // MuPDF's own failures are the document's fault: corrupt_pdf (400), not a 500
  } finally {
    doc.destroy();
    mupdf.emptyStore();
  }
}
