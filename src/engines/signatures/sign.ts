import { EngineError } from "../errors";
import { asEngineError, openPdfDocument, saveCopy, type PDFDocument } from "../mupdf/core/document";
import { loadMupdf, type Mupdf } from "../mupdf/core/loader";
import { describeName } from "./asn1";
import { appearanceObject, emptyAppearance } from "./appearance";
import { fillSignature, withPlaceholders } from "./byte-range";
import { cmsSizeBound } from "./cms-build";
import { appendRevision, lastCrossReference, latin1, type RevisionObject } from "./incremental";
import type { Signer } from "./pkcs12";
import { pdfDate, pdfText } from "./pdf-syntax";
import { at, signatureFields } from "./fields";

// Signs a PDF as an incremental update: the signature dictionary (with a
// /Contents hole of fixed size), its field and widget, and the changed page,
// AcroForm and catalog are appended; the /ByteRange then names everything
// but the hole, whose SHA-256 the CMS signs.

export type Certify = 0 | 1 | 2 | 3;

export interface SignRequest {
  signer: Signer;
  /** 0-based page for the widget. */
  page: number;
  /** Visible box [x, y, width, height] in points from the crop box's lower-left corner; null for an invisible signature. */
  rect: [number, number, number, number] | null;
  lines: string[] | null;
  reason?: string;
  location?: string;
  contactInfo?: string;
  /** DocMDP permission level (ISO 32000-2, 12.8.2.2): 0 an approval signature, 1-3 a certification. */
  certify: Certify;
  now: Date;
}

export interface SignOutcome {
  data: Uint8Array;
  field: string;
  pages: number;
  byteRange: [number, number, number, number];
  /** The input needed repair, so it was rewritten before signing (its earlier signatures, if any, could not survive). */
  rewritten: boolean;
}

type Obj = ReturnType<PDFDocument["getTrailer"]>;

function uniqueName(taken: Set<string>): string {
  for (let i = 1; ; i++) if (!taken.has(`Signature${i}`)) return `Signature${i}`;
}

/** Default lines of a visible box: who signed, when, and why and where when given. */
function defaultLines(req: SignRequest): string[] {
  const who = describeName(req.signer.certificate.subject);
  const lines = [`Digitally signed by ${who.cn ?? who.o ?? who.dn}`, `Date: ${req.now.toISOString().replace("T", " ").slice(0, 19)} UTC`];
  if (req.reason) lines.push(`Reason: ${req.reason}`);
  if (req.location) lines.push(`Location: ${req.location}`);
  return lines;
}

function openPlain(mupdf: Mupdf, bytes: Uint8Array): PDFDocument {
  const doc = openPdfDocument(mupdf, bytes);
  if (doc.needsPassword() || (doc.getMetaData("encryption") ?? "None") !== "None") {
    doc.destroy();
    throw new EngineError(
      "encrypted",
      "The PDF is encrypted; remove its password with Unlock PDF first (a signature over encrypted content is not supported).",
    );
  }
  return doc;
}

interface Link {
  root: Obj;
  rootNum: number;
  page: Obj;
  pageNum: number;
  widgetNum: number;
  sigNum: number;
  certify: Certify;
}

/**
 * Puts the widget into the page's /Annots and the AcroForm's /Fields (and the
 * signature into /Perms when certifying), answering the objects to write
 * again by number.
 */
function linkWidget(doc: PDFDocument, l: Link): Map<number, Obj> {
  const widgetRef = doc.newIndirect(l.widgetNum);
  const changed = new Map<number, Obj>();
  /** Writes `holder` (object `num`) again, or the array object that changed instead. */
  const append = (holder: Obj, num: number, key: string) => {
    const arrayNum = appendToArray(holder, key, widgetRef);
    if (arrayNum === null) changed.set(num, num === l.rootNum ? l.root : holder);
    else changed.set(arrayNum, holder.get(key).resolve());
  };
  append(l.page, l.pageNum, "Annots");

  const acroRef = l.root.get("AcroForm");
  if (!acroRef.isIndirect() && !acroRef.isDictionary()) l.root.put("AcroForm", doc.newDictionary());
  const acro = l.root.get("AcroForm").resolve();
  const acroNum = acroRef.isIndirect() ? acroRef.asIndirect() : l.rootNum;
  append(acro, acroNum, "Fields");
  // SigFlags 3: the file has signatures and must be saved by appending (12.7.3).
  acro.put("SigFlags", 3);
  changed.set(acroNum, acroNum === l.rootNum ? l.root : acro);
  if (l.certify) {
    if (!at(l.root, "Perms")?.isDictionary()) l.root.put("Perms", doc.newDictionary());
    l.root.get("Perms").put("DocMDP", doc.newIndirect(l.sigNum));
    changed.set(l.rootNum, l.root);
  }
  return changed;
}

/**
 * Adds `ref` to the array at `key` of `holder`. Answers the number of the
 * array object when the array is indirect (that object must be written
 * again), else null: the holder itself changed.
 */
function appendToArray(holder: Obj, key: string, ref: Obj): number | null {
  const current = holder.get(key);
  if (current.isIndirect() && current.resolve().isArray()) {
    current.resolve().push(ref);
    return current.asIndirect();
  }
  if (current.isArray()) current.push(ref);
  else holder.put(key, [ref]);
  return null;
}

export async function signPdf(input: Uint8Array, req: SignRequest): Promise<SignOutcome> {
  const mupdf = await loadMupdf();
  let base = input;
  let doc = openPlain(mupdf, base);
  try {
    const pages = doc.countPages();
    if (pages === 0) throw new EngineError("corrupt", "The PDF has no readable pages.");
    if (req.page >= pages) throw new EngineError("invalid_input", `page ${req.page + 1} does not exist: the PDF has ${pages} page(s).`);
    // An incremental update needs a sound last cross-reference section to point /Prev at; a file MuPDF had to repair is rewritten first.
    doc.getTrailer().get("Root").resolve();
    let xref = lastCrossReference(base);
    const rewritten = doc.wasRepaired() || xref === null;
    if (rewritten) {
      if (signatureFields(doc).some((f) => f.signed)) {
        throw new EngineError(
          "corrupt",
          "The PDF's cross-reference is damaged and it is signed already: rewriting it to sign again would break the existing signatures.",
        );
      }
      base = saveCopy(doc, "");
      doc.destroy();
      doc = openPlain(mupdf, base);
      xref = lastCrossReference(base);
      if (!xref) throw new Error("MuPDF's rewrite has no cross-reference section");
    }
    return await signDocument(doc, base, xref as { offset: number; stream: boolean }, req, pages, rewritten);
  } catch (err) {
    throw asEngineError(err, "corrupt", "The PDF could not be signed");
  } finally {
    doc.destroy();
    mupdf.emptyStore();
  }
}

async function signDocument(
  doc: PDFDocument,
  base: Uint8Array,
  xref: { offset: number; stream: boolean },
  req: SignRequest,
  pages: number,
  rewritten: boolean,
): Promise<SignOutcome> {
  const trailer = doc.getTrailer();
  const rootRef = trailer.get("Root");
  if (!rootRef.isIndirect()) throw new EngineError("corrupt", "The PDF's catalog is not an indirect object.");
  const root = rootRef.resolve();
  const existing = signatureFields(doc);
  if (req.certify && existing.some((f) => f.signed)) {
    throw new EngineError(
      "invalid_input",
      "certify: a certification must be the document's first signature, and this PDF is signed already; sign it without certify.",
    );
  }
  const mdp = at(root, "Perms", "DocMDP")?.resolve();
  if (mdp?.isDictionary() && docMdpLevel(mdp) === 1)
    throw new EngineError("invalid_input", "The PDF is certified with no changes allowed (DocMDP P=1): another signature would invalidate its certification.");

  const sigNum = doc.createObject().asIndirect();
  const widgetNum = doc.createObject().asIndirect();
  const apNum = doc.createObject().asIndirect();
  const rootNum = rootRef.asIndirect();
  const pageRef = doc.findPage(req.page);
  if (!pageRef.isIndirect()) throw new EngineError("corrupt", "The page is not an indirect object.");
  const page = pageRef.resolve();
  const changed = linkWidget(doc, { root, rootNum, page, pageNum: pageRef.asIndirect(), widgetNum, sigNum, certify: req.certify });

  const field = uniqueName(new Set(existing.map((f) => f.name)));
  const box = req.rect ? placeRect(page, req.rect) : [0, 0, 0, 0];
  const sig = signatureDictionary(req, cmsSizeBound(req.signer));
  const widget = [
    "<< /Type /Annot /Subtype /Widget /FT /Sig",
    `/T ${pdfText(field)} /V ${sigNum} 0 R /P ${pageRef.asIndirect()} 0 R`,
    // F 132: print and locked (the box cannot be moved or deleted in a viewer).
    `/Rect [${box.join(" ")}] /F 132 /AP << /N ${apNum} 0 R >> >>`,
  ].join(" ");
  const ap = req.rect ? appearanceObject(req.rect[2], req.rect[3], req.lines ?? defaultLines(req)) : emptyAppearance();

  const objects: RevisionObject[] = [
    ...[...changed].map(([num, obj]) => ({ num, body: latin1(obj.toString(false, true)) })),
    { num: sigNum, body: latin1(sig.text) },
    { num: widgetNum, body: latin1(widget) },
    { num: apNum, body: ap },
  ];
  const info = trailer.get("Info");
  const id = trailer.get("ID");
  const firstId = id.isArray() && id.length > 0 && id.get(0).isString() ? id.get(0).asByteString() : crypto.getRandomValues(new Uint8Array(16));
  const revision = appendRevision(base, objects, {
    size: doc.countObjects(),
    root: rootNum,
    info: info.isIndirect() ? info.asIndirect() : null,
    id: [firstId, crypto.getRandomValues(new Uint8Array(16))],
    prev: xref.offset,
    xrefStream: xref.stream,
  });

  const byteRange = await fillSignature(revision.bytes, revision.bodyOffsets.get(sigNum) ?? 0, sig, req.signer);
  return { data: revision.bytes, field, pages, byteRange, rewritten };
}

function docMdpLevel(sig: Obj): number | null {
  const refs = sig.get("Reference");
  for (let i = 0; refs.isArray() && i < refs.length; i++) {
    const r = refs.get(i).resolve();
    if (at(r, "TransformMethod")?.isName() && r.get("TransformMethod").asName() === "DocMDP") {
      const p = at(r, "TransformParams", "P");
      return p?.isNumber() ? p.asNumber() : 2;
    }
  }
  return null;
}

/** The widget rectangle in default user space: the caller's box moved to the crop box's origin. */
function placeRect(page: Obj, [x, y, w, h]: [number, number, number, number]): number[] {
  const box = page.getInheritable("CropBox").isArray() ? page.getInheritable("CropBox") : page.getInheritable("MediaBox");
  const x0 = box.isArray() ? Math.min(box.get(0).asNumber(), box.get(2).asNumber()) : 0;
  const y0 = box.isArray() ? Math.min(box.get(1).asNumber(), box.get(3).asNumber()) : 0;
  const r = (n: number) => Math.round(n * 100) / 100;
  return [r(x0 + x), r(y0 + y), r(x0 + x + w), r(y0 + y + h)];
}

/** The signature dictionary with its placeholders, and where they sit in its text. */
function signatureDictionary(req: SignRequest, reserved: number) {
  const tail = [
    `/M ${pdfText(pdfDate(req.now))}`,
    req.reason ? `/Reason ${pdfText(req.reason)}` : "",
    req.location ? `/Location ${pdfText(req.location)}` : "",
    req.contactInfo ? `/ContactInfo ${pdfText(req.contactInfo)}` : "",
    req.certify ? `/Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P ${req.certify} /V /1.2 >> >>]` : "",
    "/Prop_Build << /App << /Name /docapi >> >>",
    ">>",
  ]
    .filter(Boolean)
    .join(" ");
  return withPlaceholders("<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [", tail, reserved);
}
