import { FormatError, pageLabels, parseFormat } from "../../numbering/format";
import { EngineError } from "../../errors";
import { saveCopy, withPdf } from "../core/document";
import { graftLabelForms } from "./forms";
import { loadMupdf } from "../core/loader";
import { anchorCenter, stampMatrix, visualSize, type Position } from "./placement";
import { opacityState, stampEachPage } from "./stamp";
import { SAVE } from "../core/save-options";
import { layoutLabels } from "./text-layout";
import { STAMP_MARGIN, type StampResult } from "./watermark";

export interface PageNumberOptions {
  fmt: string;
  position: Position;
  /** Number shown on the first numbered page. */
  start: number;
  /** 1-based page where numbering begins. */
  firstPage: number;
  fontSize: number;
  color: string;
}

/**
 * Stamps a label on every page from `firstPage` on. All labels are laid out
 * in one pass (one HTML document, one page each) and grafted with one graft
 * map, so the font is embedded once however many pages there are.
 */
export async function addPageNumbers(bytes: Uint8Array, opts: PageNumberOptions): Promise<StampResult> {
  const mupdf = await loadMupdf();
  invalidUnless(() => parseFormat(opts.fmt));
  return withPdf(bytes, (doc) => {
    const count = doc.countPages();
    if (opts.firstPage > count) throw new EngineError("invalid_input", `first_page is ${opts.firstPage} but the PDF has ${count} pages.`);
    const skip = opts.firstPage - 1;
    const labels = invalidUnless(() => pageLabels(opts.fmt, opts.start, count - skip));
    const sheet = layoutLabels(mupdf, labels, { fontSize: opts.fontSize, color: opts.color });
    try {
      const forms = graftLabelForms(doc, sheet.doc, sheet.boxes);
      stampEachPage(doc, (index, size) => {
        if (index < skip) return null;
        const form = forms[index - skip];
        const stamp = { box: form.box, scale: 1, angle: 0 };
        const [x, y] = anchorCenter(opts.position, size, visualSize(stamp), STAMP_MARGIN);
        return { draws: [{ form: form.ref, matrices: [stampMatrix(stamp, x, y)] }], opacity: opacityState(doc, 1) };
      });
      return { data: saveCopy(doc, SAVE.stamped), pages: count - skip };
    } finally {
      sheet.doc.destroy();
    }
  });
}

function invalidUnless<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof FormatError) throw new EngineError("invalid_input", err.message);
    throw err;
  }
}
