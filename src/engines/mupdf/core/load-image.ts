import type { Image, PDFObject } from "mupdf";
import type { PDFDocument } from "./document";
import type { Mupdf } from "./loader";

/**
 * `PDFDocument.loadImage` in MuPDF.js 1.28 leaks: it wraps the new reference
 * pdf_load_image returns in `new Image(pointer)`, whose constructor takes
 * another reference, and destroy() drops only one. Every call then pins the
 * image's compressed data in the WASM heap for good (a 10 MB scanned PDF
 * grew the heap by ~10 MB a request, measured). The extra reference is
 * dropped here, so destroy() frees the image as it should.
 */
export function loadImage(mupdf: Mupdf, doc: PDFDocument, ref: PDFObject): Image {
  const image = doc.loadImage(ref);
  mupdf.Image._drop(image.pointer);
  return image;
}
