import { concat } from "../../../runtime/bytes";
import type { Mupdf } from "../core/loader";
import type { PDFDocument } from "../core/document";
import type { Box } from "./placement";

type PDFObject = ReturnType<PDFDocument["newNull"]>;
type Image = InstanceType<Mupdf["Image"]>;

/** A Form XObject in the target document and the box it draws in (its own space). */
export interface FormStamp {
  ref: PDFObject;
  box: Box;
}

// Glyph outlines may overhang the line box a little (accents, italics); a
// small pad keeps the form's clip from shaving them.
const PAD = 2;

/**
 * Copies each page of a label sheet into `target` as a Form XObject. One
 * graft map for all pages: fonts the labels share are copied once.
 */
export function graftLabelForms(target: PDFDocument, sheet: PDFDocument, boxes: readonly Box[]): FormStamp[] {
  const graft = target.newGraftMap();
  return boxes.map((b, i) => {
    const page = sheet.findPage(i);
    const box: Box = [b[0] - PAD, b[1] - PAD, b[2] + PAD, b[3] + PAD];
    const resources = graft.graftObject(page.get("Resources"));
    const ref = target.addStream(pageContents(page), { Type: "XObject", Subtype: "Form", BBox: box, Resources: resources });
    return { ref, box };
  });
}

/** The decoded content of a page (one stream or an array of them). */
function pageContents(page: PDFObject): Uint8Array {
  const contents = page.get("Contents");
  const parts: Uint8Array[] = [];
  const read = (s: PDFObject) => {
    const buf = s.readStream();
    parts.push(buf.asUint8Array().slice(), new Uint8Array([10]));
    buf.destroy();
  };
  if (contents.isArray()) contents.forEach((s) => read(s));
  else if (contents.isStream()) read(contents);
  return concat(parts);
}

/** An image as a Form XObject drawn over [0 0 width height] (one unit per pixel). */
export function imageForm(target: PDFDocument, image: Image): FormStamp {
  const w = image.getWidth();
  const h = image.getHeight();
  const imageRef = target.addImage(image);
  const resources = { XObject: { Im0: imageRef } };
  const ref = target.addStream(`q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`, { Type: "XObject", Subtype: "Form", BBox: [0, 0, w, h], Resources: resources });
  return { ref, box: [0, 0, w, h] };
}
