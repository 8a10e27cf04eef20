import type { PDFDocument } from "../core/document";
import { concat, invert, type Mat } from "./placement";

type PDFObject = ReturnType<PDFDocument["newNull"]>;
type PDFPage = ReturnType<PDFDocument["loadPage"]>;

/** Forms to draw on one page, each with its matrices in visual space. */
export interface PageStamps {
  draws: { form: PDFObject; matrices: Mat[] }[];
  /** Shared ExtGState carrying the opacity, or null for opaque. */
  opacity: PDFObject | null;
}

export function opacityState(doc: PDFDocument, opacity: number): PDFObject | null {
  if (opacity >= 1) return null;
  return doc.addObject({ Type: "ExtGState", ca: opacity, CA: opacity });
}

/** Visual page size (after crop box and /Rotate), as a reader sees it. */
export function pageSize(page: PDFPage): [number, number] {
  const [x0, y0, x1, y1] = page.getBounds();
  return [x1 - x0, y1 - y0];
}

/**
 * Stamps every page: `plan` answers what to draw on page `index` of visual
 * size `size`. Pages are loaded one at a time and freed at once.
 */
export function stampEachPage(doc: PDFDocument, plan: (index: number, size: [number, number]) => PageStamps | null): number {
  const saveState = saveStateStream(doc);
  const count = doc.countPages();
  let stamped = 0;
  for (let i = 0; i < count; i++) {
    const page = doc.loadPage(i);
    try {
      const stamps = plan(i, pageSize(page));
      if (stamps) {
        stampPage(doc, page, stamps, saveState);
        stamped++;
      }
    } finally {
      page.destroy();
    }
  }
  return stamped;
}

/**
 * Draws forms on top of a page's content. The original content is wrapped
 * in q/Q so whatever graphics state it leaves behind cannot skew the stamp;
 * matrices are composed with the inverse of MuPDF's page transform, so a
 * stamp placed in visual space lands where the reader sees it whatever the
 * page's /Rotate and crop box.
 */
export function stampPage(doc: PDFDocument, page: PDFPage, stamps: PageStamps, saveState: PDFObject): void {
  const [bx, by] = page.getBounds();
  const toUser = invert(concat(page.getTransform(), [1, 0, 0, 1, -bx, -by]));
  const names = addResources(doc, page.getObject(), stamps);
  const ops: string[] = ["Q", "q"];
  if (names.gs) ops.push(`/${names.gs} gs`);
  stamps.draws.forEach((draw, i) => {
    for (const m of draw.matrices) ops.push(`q ${concat(m, toUser).map(num).join(" ")} cm /${names.forms[i]} Do Q`);
  });
  ops.push("Q");
  appendContents(doc, page.getObject(), saveState, ops.join("\n"));
}

const num = (v: number): string => (Math.abs(v) < 1e-9 ? "0" : String(Math.round(v * 10_000) / 10_000));

/** A stream holding "q", shared by every page of a document. */
export function saveStateStream(doc: PDFDocument): PDFObject {
  return doc.addStream("q\n", {});
}

/**
 * Wraps the page's own content in `saveState` ("q") ... "Q" and appends
 * `ops` after it, so whatever state the page leaves cannot reach what is
 * added (the stamps, the OCR text layer). The page's streams are not
 * rewritten.
 */
export function appendContents(doc: PDFDocument, pageObj: PDFObject, saveState: PDFObject, ops: string): void {
  const contents = pageObj.get("Contents");
  const list = doc.newArray();
  list.push(saveState);
  if (contents.isArray()) contents.forEach((c) => list.push(c));
  else if (!contents.isNull()) list.push(contents);
  list.push(doc.addStream(`\n${ops}\n`, {}));
  pageObj.put("Contents", list);
}

/**
 * Gives the page its own shallow copy of its (possibly inherited or shared)
 * resources, with the stamp's forms and ExtGState added under names the
 * page does not use yet. Values stay references, so nothing is duplicated.
 */
function addResources(doc: PDFDocument, pageObj: PDFObject, stamps: PageStamps): { forms: string[]; gs: string | null } {
  const resources = shallowCopy(doc, pageObj.getInheritable("Resources"));
  const xobjects = shallowCopy(doc, resources.get("XObject"));
  const forms = stamps.draws.map((d, i) => {
    const name = freeName(xobjects, `DocapiStamp${i}`);
    xobjects.put(name, d.form);
    return name;
  });
  resources.put("XObject", xobjects);
  let gs: string | null = null;
  if (stamps.opacity) {
    const states = shallowCopy(doc, resources.get("ExtGState"));
    gs = freeName(states, "DocapiOpacity");
    states.put(gs, stamps.opacity);
    resources.put("ExtGState", states);
  }
  pageObj.put("Resources", resources);
  return { forms, gs };
}

function shallowCopy(doc: PDFDocument, dict: PDFObject): PDFObject {
  const copy = doc.newDictionary();
  if (dict.isDictionary()) dict.forEach((value, key) => copy.put(key, value));
  return copy;
}

function freeName(dict: PDFObject, base: string): string {
  let name = base;
  for (let i = 1; !dict.get(name).isNull(); i++) name = `${base}_${i}`;
  return name;
}
