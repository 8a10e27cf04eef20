import { LIMITS } from "../../../config";
import { EngineError } from "../../errors";
import { isMupdfError, type PDFDocument } from "../core/document";
import { loadMupdf, type Mupdf } from "../core/loader";
import { withMupdfLog } from "../core/log";
import { rebuildPageTree, scanPageObjects, walkPageTree } from "./tree";
import { salvageStreams } from "./streams";
import { SAVE } from "../core/save-options";

// Repair PDF. MuPDF rebuilds a broken cross-reference table by scanning the
// file for objects when it cannot trust the one it finds; on top of that:
//   1. the page tree is walked with a budget and rebuilt flat when it is
//      cyclic, miscounted or gone (pages found by /Type /Page);
//   2. if the file as given yields no usable pages, it is reopened with its
//      startxref keywords defaced, which forces the object scan even where
//      the xref chain looks valid but lies (a looping /Prev, a /Prev array),
//      and then also without a torn last object (truncated files);
//   3. streams whose general-purpose filters fail to decode are replaced
//      (images by a grey placeholder, others by what did decode), so
//      `qpdf --check` finds no damage left (repair-streams.ts);
//   4. the result is written fresh (garbage-collected, compressed) and
//      reopened to prove it reads cleanly. MuPDF 1.28 cannot linearize: the
//      caller (src/engines/mupdf/repair/repair.ts) has qpdf do that, and when this finds
//      nothing usable, runs it again over the file's objects rewritten.
// Every loop is bounded by a count, not a clock: Workers freeze time during
// synchronous work, so a deadline could not fire.

export interface RepairOutcome {
  data: Uint8Array;
  pages: number;
  /** The input needed recovery (MuPDF warned, the tree or streams were rebuilt). */
  damaged: boolean;
  /** Undecodable images replaced by a grey placeholder. */
  imagesReplaced: number;
}

const NODE_BUDGET = LIMITS.pdfPages * 4 + 1_000;
const OBJECT_BUDGET = 1_000_000;

interface Candidate extends RepairOutcome {
  rebuilt: boolean;
}

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));
const STARTXREF = ascii("startxref");
const ENDOBJ = ascii("endobj");

function matchesAt(bytes: Uint8Array, at: number, key: number[]): boolean {
  for (let j = 0; j < key.length; j++) if (bytes[at + j] !== key[j]) return false;
  return true;
}

/** A copy with every "startxref" defaced: MuPDF then reconstructs the xref from the objects. */
export function withoutStartxref(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  for (let i = 0; i + STARTXREF.length <= out.length; i++) if (matchesAt(out, i, STARTXREF)) out[i] = 0x58; // "X"
  return out;
}

/**
 * The bytes up to the last complete object. MuPDF's object scan gives up
 * ("invalid key in dict") on an object cut off by truncation, losing every
 * object before it; without the torn tail the scan recovers them.
 */
export function upToLastObject(bytes: Uint8Array): Uint8Array | null {
  for (let i = bytes.length - ENDOBJ.length; i >= 0; i--) {
    if (matchesAt(bytes, i, ENDOBJ)) return i + ENDOBJ.length < bytes.length - 1 ? bytes.slice(0, i + ENDOBJ.length) : null;
  }
  return null;
}

function open(mupdf: Mupdf, bytes: Uint8Array): PDFDocument | null {
  try {
    return mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  } catch {
    return null;
  }
}

function loads(doc: PDFDocument, index: number): boolean {
  try {
    doc.loadPage(index).destroy();
    return true;
  } catch {
    return false;
  }
}

function countPages(doc: PDFDocument): number {
  try {
    return doc.countPages();
  } catch {
    return -1;
  }
}

/** Finds the pages, rebuilding the tree when needed; pages that still fail to load are left out. */
function recoverPages(doc: PDFDocument): { pages: number; rebuilt: boolean } {
  const walk = walkPageTree(doc, NODE_BUDGET);
  let pages = walk.pages;
  let rebuilt = walk.broken || pages.length !== countPages(doc);
  if (pages.length === 0) pages = scanPageObjects(doc, OBJECT_BUDGET);
  if (pages.length === 0) return { pages: 0, rebuilt };
  if (pages.length > LIMITS.pdfPages)
    throw new EngineError("too_large", `The PDF has ${pages.length} pages; at most ${LIMITS.pdfPages} are processed per call.`);
  if (rebuilt) rebuildPageTree(doc, pages);
  const good = pages.filter((_, i) => loads(doc, i));
  if (good.length !== pages.length) {
    rebuildPageTree(doc, good);
    rebuilt = true;
  }
  return { pages: good.length, rebuilt };
}

function attempt(mupdf: Mupdf, bytes: Uint8Array): Candidate | null {
  try {
    return attemptOnce(mupdf, bytes);
  } catch (err) {
    if (err instanceof EngineError || !isMupdfError(err)) throw err; // ours, not the file's
    return null; // MuPDF gave up on this route; the other one may still work
  }
}

function attemptOnce(mupdf: Mupdf, bytes: Uint8Array): Candidate | null {
  const { result, messages } = withMupdfLog(mupdf, () => {
    const doc = open(mupdf, bytes);
    if (!doc) return null;
    try {
      if (doc.needsPassword()) throw new EngineError("encrypted", "The PDF is password-protected; unlock it first.");
      const { pages, rebuilt } = recoverPages(doc);
      if (pages === 0) return null;
      const warned = doc.wasRepaired();
      const salvaged = salvageStreams(mupdf, doc, OBJECT_BUDGET);
      const fixed = salvaged.streams + salvaged.images;
      const buf = doc.saveToBuffer(SAVE.repaired);
      try {
        return { data: buf.asUint8Array().slice(), pages, rebuilt, damaged: warned || rebuilt || fixed > 0, imagesReplaced: salvaged.images };
      } finally {
        buf.destroy();
      }
    } finally {
      doc.destroy();
    }
  });
  if (!result) return null;
  return { ...result, damaged: result.damaged || messages.length > 0 };
}

/** The written file must reopen without repair and with the same pages. */
function verified(mupdf: Mupdf, candidate: Candidate): boolean {
  const { result } = withMupdfLog(mupdf, () => {
    const doc = open(mupdf, candidate.data);
    if (!doc) return false;
    try {
      const n = countPages(doc);
      if (n !== candidate.pages || doc.wasRepaired()) return false;
      for (let i = 0; i < n; i++) if (!loads(doc, i)) return false;
      return true;
    } finally {
      doc.destroy();
    }
  });
  return result;
}

/** Repairs a damaged PDF, or refuses with EngineError("corrupt") when nothing usable is left. */
export async function repairPdf(bytes: Uint8Array): Promise<RepairOutcome> {
  const mupdf = await loadMupdf();
  try {
    // Cheapest route first; the forced scans only when it found nothing usable or a broken tree.
    let best = attempt(mupdf, bytes);
    const tail = upToLastObject(bytes);
    const routes = [() => withoutStartxref(bytes), ...(tail ? [() => withoutStartxref(tail)] : [])];
    for (const route of routes) {
      if (best && !best.rebuilt) break;
      const forced = attempt(mupdf, route());
      if (forced && (!best || forced.pages > best.pages)) best = { ...forced, damaged: true };
    }
    if (!best || !verified(mupdf, best)) {
      throw new EngineError("corrupt", "The PDF is too damaged to recover: no readable page could be rebuilt.");
    }
    return { data: best.data, pages: best.pages, damaged: best.damaged, imagesReplaced: best.imagesReplaced };
  } finally {
    mupdf.emptyStore();
  }
}
