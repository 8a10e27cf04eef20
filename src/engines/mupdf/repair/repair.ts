import { EngineError } from "../../errors";
import { repairPdf as mupdfRepair, type RepairOutcome } from "./recover";
import { linearize } from "../../qpdf/linearization";
import { mendFilterEntries } from "./filter-entries";
import { rebuiltFile } from "./rebuild-file";

// Repair PDF. MuPDF's recovery comes first (it rebuilds the cross-reference
// table and page trees and salvages streams, src/engines/mupdf/repair/recover.ts).
// When it finds no usable page, the file's objects are rewritten into a new
// file with an exact table and a fresh page tree (rebuild-file.ts), first as
// they are, then with the page dictionaries rebuilt from their readable
// parts, and MuPDF's recovery runs over that. A /Filter MuPDF keeps as it
// found it (not a name or names) is mended next and the recovery run once
// more, so the renamed filters' data is checked too (filter-entries.ts).
// Every repaired file is then linearized by qpdf, and `linearized` says what
// the written file is.
//
// qpdf's own reconstruction is not a road here: the WebAssembly build used
// (@neslinesli93/qpdf-wasm 0.3.0, qpdf 12.2) stops at the first damage
// ("can't find startxref", "invalid xref entry") instead of reconstructing as
// the native qpdf does; it writes sound files, which is all linearizing needs.

export type RecoveryRoad = "mupdf" | "rebuilt_objects" | "rebuilt_pages";

export interface Repaired extends RepairOutcome {
  linearized: boolean;
  /** Which reconstruction produced the file. */
  road: RecoveryRoad;
}

async function mupdfOrNull(bytes: Uint8Array | null): Promise<RepairOutcome | null> {
  if (!bytes) return null;
  try {
    return await mupdfRepair(bytes);
  } catch (err) {
    if (err instanceof EngineError && err.kind === "corrupt") return null;
    throw err;
  }
}

async function recover(bytes: Uint8Array): Promise<{ outcome: RepairOutcome; road: RecoveryRoad }> {
  const first = await mupdfOrNull(bytes);
  if (first) return { outcome: first, road: "mupdf" };
  const objects = await mupdfOrNull(rebuiltFile(bytes, { sanitizePages: false }));
  if (objects) return { outcome: { ...objects, damaged: true }, road: "rebuilt_objects" };
  const pages = await mupdfOrNull(rebuiltFile(bytes, { sanitizePages: true }));
  if (pages) return { outcome: { ...pages, damaged: true }, road: "rebuilt_pages" };
  throw new EngineError("corrupt", "The PDF is too damaged to recover: no readable page could be rebuilt.");
}

/** The recovered file with its malformed /Filter entries mended, or as it was when it has none. */
async function withFiltersMended(outcome: RepairOutcome): Promise<RepairOutcome> {
  const mended = await mendFilterEntries(outcome.data);
  if (!mended) return outcome;
  const again = await mupdfRepair(mended.data);
  return { ...again, damaged: true, imagesReplaced: outcome.imagesReplaced + mended.images + again.imagesReplaced };
}

/** Repairs and linearizes; EngineError("corrupt") when no road finds a usable page. */
export async function repairDocument(bytes: Uint8Array): Promise<Repaired> {
  const recovered = await recover(bytes);
  const { road } = recovered;
  const outcome = await withFiltersMended(recovered.outcome);
  const linear = await linearize(outcome.data);
  return { ...outcome, data: linear?.data ?? outcome.data, linearized: linear !== null, road };
}
