import { LIMITS } from "../../../config";
import { EngineError } from "../../errors";
import { loadMupdf, type Mupdf } from "../core/loader";
import { SAVE } from "../core/save-options";
import { asEngineError, openPdf, saveCopy, type PDFDocument } from "../core/document";
import { copyInfo, writeOutline, type OutlineNode } from "./outline";
import { detachPage } from "./page-tree";
import { isInternal } from "./split";

type PDFObject = ReturnType<PDFDocument["newNull"]>;

export interface MergeSource {
  name: string;
  data: Uint8Array;
}

export interface MergeResult {
  data: Uint8Array;
  pages: number;
}

// Pages are grafted as whole page objects (graftPage() would drop /Annots, so
// links, notes and form widgets would vanish). One graft map per source keeps
// shared resources and cross-references within a source copied once.

export async function mergePdfs(sources: MergeSource[]): Promise<MergeResult> {
  const mupdf = await loadMupdf();
  const out = new mupdf.PDFDocument();
  try {
    const outline: OutlineNode[] = [];
    const fieldNames = new Set<string>();
    let fields: PDFObject | null = null;
    for (const [index, source] of sources.entries()) {
      const src = openSource(mupdf, source, index);
      try {
        const first = out.countPages();
        if (first + src.countPages() > LIMITS.pdfPages) {
          throw new EngineError("too_large", `The merged document would exceed ${LIMITS.pdfPages} pages.`);
        }
        const graft = out.newGraftMap();
        // Names first: grafting a page copies its widgets' fields as they are then.
        const srcFields = renameClashingFields(src, fieldNames, index);
        appendPages(out, src, graft);
        fields = appendFields(out, src, graft, srcFields, fields);
        outline.push({ title: stem(source.name), page: first, children: shiftOutline(src, first) });
        if (index === 0) copyInfo(src, out);
      } finally {
        src.destroy();
      }
    }
    writeOutline(out, outline);
    return { data: saveCopy(out, SAVE.assembled), pages: out.countPages() };
  } catch (err) {
    throw asEngineError(err);
  } finally {
    out.destroy();
    mupdf.emptyStore();
  }
}

function openSource(mupdf: Mupdf, source: MergeSource, index: number): PDFDocument {
  try {
    return openPdf(mupdf, source.data);
  } catch (err) {
    if (err instanceof EngineError) throw new EngineError(err.kind, `File ${index + 1} (${source.name}): ${err.message}`);
    throw err;
  }
}

function appendPages(out: PDFDocument, src: PDFDocument, graft: ReturnType<PDFDocument["newGraftMap"]>): void {
  const count = src.countPages();
  for (let p = 0; p < count; p++) {
    const page = src.findPage(p);
    detachPage(page);
    out.insertPage(-1, graft.graftObject(page));
  }
}

/**
 * Renames the source's top-level fields whose names are already taken
 * (name_2, name_3...): two fields of one name would otherwise share one
 * value in every viewer. Returns the source's Fields array, if any.
 */
function renameClashingFields(src: PDFDocument, names: Set<string>, index: number): PDFObject | null {
  const acro = src.getTrailer().get("Root").get("AcroForm");
  const srcFields = acro.isNull() ? null : acro.get("Fields");
  if (!srcFields?.isArray() || srcFields.length === 0) return null;
  for (let i = 0; i < srcFields.length; i++) {
    const field = srcFields.get(i);
    const name = field.get("T");
    let title = name.isString() ? name.asString() : `field${i + 1}`;
    if (names.has(title)) {
      let n = index + 1;
      while (names.has(`${title}_${n}`)) n++;
      title = `${title}_${n}`;
      field.put("T", src.newString(title));
    }
    names.add(title);
  }
  return srcFields;
}

/** Copies the source's form fields into the output's AcroForm (created on first use). */
function appendFields(
  out: PDFDocument,
  src: PDFDocument,
  graft: ReturnType<PDFDocument["newGraftMap"]>,
  srcFields: PDFObject | null,
  fields: PDFObject | null,
): PDFObject | null {
  if (!srcFields) return fields;
  const acro = src.getTrailer().get("Root").get("AcroForm");

  let target = fields;
  if (!target) {
    const form = out.newDictionary();
    target = out.newArray();
    form.put("Fields", target);
    for (const key of ["DA", "DR", "NeedAppearances", "Q"]) {
      const v = acro.get(key);
      if (!v.isNull()) form.put(key, graft.graftObject(v));
    }
    out.getTrailer().get("Root").put("AcroForm", out.addObject(form));
    target = out.getTrailer().get("Root").get("AcroForm").get("Fields");
  }
  for (let i = 0; i < srcFields.length; i++) target.push(graft.graftObject(srcFields.get(i)));
  return target;
}

/** The source's outline with page numbers moved to where its pages now start. */
function shiftOutline(src: PDFDocument, offset: number): OutlineNode[] {
  let items: ReturnType<PDFDocument["loadOutline"]>;
  try {
    items = src.loadOutline() ?? [];
  } catch {
    // A cyclic or broken outline is dropped; the pages themselves are fine.
    return [];
  }
  const walk = (list: typeof items): OutlineNode[] =>
    list.map((item) => ({
      title: item.title ?? "",
      page: isInternal(item) ? (item.page as number) + offset : undefined,
      // MuPDF's outline writer turns other schemes (file: links to other PDFs)
      // into a jump to page 1 of this document; such bookmarks keep their title only.
      uri: !isInternal(item) && item.uri && /^(https?|mailto):/i.test(item.uri) ? item.uri : undefined,
      children: walk(item.down ?? []),
    }));
  return walk(items);
}

function stem(filename: string): string {
  return filename.replace(/\.pdf$/i, "") || filename;
}
