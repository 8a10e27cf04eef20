import { LIMITS } from "../../../config";
import { EngineError, type EngineErrorKind } from "../../errors";
import { MupdfError } from "../../../../wasm/mupdf-factory.js";
import { loadMupdf, type Mupdf } from "./loader";

type PDFDocument = InstanceType<Mupdf["PDFDocument"]>;

export interface OpenOptions {
  /** Password to try; without one an encrypted file is refused. */
  password?: string;
  maxPages?: number;
}

/**
 * Opens PDF bytes and hands the document to `work`, then frees it and
 * MuPDF's store so the WASM heap stays flat across requests (it never
 * shrinks). Authentication happens before any other call: touching a locked
 * document first spoils it even for the right password.
 */
export async function withPdf<T>(bytes: Uint8Array, work: (doc: PDFDocument, mupdf: Mupdf) => T | Promise<T>, opts: OpenOptions = {}): Promise<T> {
  const mupdf = await loadMupdf();
  const doc = openPdf(mupdf, bytes, opts);
  try {
    return await work(doc, mupdf);
  } catch (err) {
    throw asEngineError(err);
  } finally {
    doc.destroy();
    mupdf.emptyStore();
  }
}

/**
 * Opens PDF bytes without authenticating or checking pages: for callers that
 * decide themselves what an encrypted file means (metadata, PDF/A, unlock).
 */
export function openPdfDocument(mupdf: Mupdf, bytes: Uint8Array): PDFDocument {
  let doc: PDFDocument | null;
  try {
    doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  } catch (err) {
    throw asEngineError(err, "corrupt", "The PDF could not be read");
  }
  if (!doc) throw new EngineError("corrupt", "The file is not a PDF.");
  return doc;
}

export function openPdf(mupdf: Mupdf, bytes: Uint8Array, opts: OpenOptions = {}): PDFDocument {
  const doc = openPdfDocument(mupdf, bytes);
  try {
    if (doc.needsPassword()) {
      if (opts.password === undefined) throw new EngineError("encrypted", "The PDF is password-protected.");
      if (doc.authenticatePassword(opts.password) === 0) throw new EngineError("wrong_password", "The password is wrong.");
    }
    const pages = countPages(doc);
    if (pages === 0) throw new EngineError("corrupt", "The PDF has no readable pages.");
    const max = opts.maxPages ?? LIMITS.pdfPages;
    if (pages > max) throw new EngineError("too_large", `The PDF has ${pages} pages; at most ${max} are processed per call.`);
    return doc;
  } catch (err) {
    doc.destroy();
    throw err;
  }
}

function countPages(doc: PDFDocument): number {
  try {
    return doc.countPages();
  } catch (err) {
    throw asEngineError(err, "corrupt", "The page tree could not be read");
  }
}

/**
 * MuPDF reports failures inside a document (a cyclic page tree, a broken
 * stream) as MupdfError from its C side (our copy of its glue, see
 * scripts/mupdf-factory.mjs): those are the document's fault and become a
 * 4xx EngineError, "too_large" when MuPDF ran out of memory on it. Anything
 * else, our own assertions included, passes through and is answered as a
 * 500 with the request id, logged and refunded (tools/pipeline.ts).
 */
export const isMupdfError = (err: unknown): err is MupdfError => err instanceof MupdfError;

export function asEngineError(err: unknown, kind: EngineErrorKind = "corrupt", what = "The PDF could not be processed"): unknown {
  if (!(err instanceof MupdfError)) return err;
  if (/out of memory|malloc/i.test(err.message)) return new EngineError("too_large", `The PDF needs more memory than a call has: ${err.message}`);
  return new EngineError(kind, `${what}: ${err.message}`);
}

/** Copies MuPDF's output buffer out of WASM memory (its view is live). */
export function saveCopy(doc: PDFDocument, options: string): Uint8Array {
  const buf = doc.saveToBuffer(options);
  try {
    return buf.asUint8Array().slice();
  } finally {
    buf.destroy();
  }
}

export type { PDFDocument };
