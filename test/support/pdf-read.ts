import { unzipSync } from "fflate";
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFString, type PDFObject } from "pdf-lib";
import { pageTexts, streamBytes } from "./pdf-text";

// What a user would check on an output PDF, read with pdf-lib: a parser
// independent of the MuPDF the tools run on. Text is read by pdf-text.ts;
// pixels and text geometry need a renderer (mupdf.ts).

export interface Link {
  uri?: string;
  /** 0-based page of an internal link, and how it is shown (Fit, XYZ...). */
  page?: number;
  view?: string;
}

export interface OutlineItem {
  title: string;
  /** 0-based page an internal bookmark opens; absent for links out of the file. */
  page?: number;
  uri?: string;
}

export interface PdfFacts {
  pages: number;
  text: string[];
  /** Top-level bookmarks, each with the bookmarks one level below. */
  outline: (OutlineItem & { children: OutlineItem[] })[];
  /** Names of the AcroForm's top-level fields. */
  fields: string[];
  links: Link[];
  title?: string;
}

const load = (bytes: Uint8Array) => PDFDocument.load(bytes, { updateMetadata: false });
const text = (o: PDFObject | undefined) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined);
const nameOf = (o: PDFObject | undefined) => (o instanceof PDFName ? o.decodeText() : undefined);

/** Page count, page text, bookmarks, form fields, links and title. */
export async function readPdf(bytes: Uint8Array): Promise<PdfFacts> {
  const doc = await load(bytes);
  const dests = new Destinations(doc);
  const links: Link[] = [];
  for (const page of doc.getPages()) {
    for (const annot of page.node.Annots()?.asArray() ?? []) {
      const dict = doc.context.lookup(annot);
      if (dict instanceof PDFDict && nameOf(dict.lookup(PDFName.of("Subtype"))) === "Link") links.push(dests.target(dict));
    }
  }
  const items = (first: PDFObject | undefined): (OutlineItem & { node: PDFDict })[] => {
    const out: (OutlineItem & { node: PDFDict })[] = [];
    const seen = new Set<PDFDict>();
    for (let node = doc.context.lookup(first); node instanceof PDFDict && !seen.has(node); node = doc.context.lookup(node.get(PDFName.of("Next")))) {
      seen.add(node);
      const { page, view: _view, uri } = dests.target(node);
      out.push({ title: text(node.lookup(PDFName.of("Title"))) ?? "", ...(page === undefined ? {} : { page }), ...(uri === undefined ? {} : { uri }), node });
    }
    return out;
  };
  const root = doc.catalog.lookupMaybe(PDFName.of("Outlines"), PDFDict);
  const outline = items(root?.get(PDFName.of("First"))).map(({ node, ...top }) => ({
    ...top,
    children: items(node.get(PDFName.of("First"))).map(({ node: _node, ...child }) => child),
  }));
  const acro = doc.catalog.lookupMaybe(PDFName.of("AcroForm"), PDFDict);
  const fields = (acro?.lookupMaybe(PDFName.of("Fields"), PDFArray)?.asArray() ?? []).map(
    (f) => text(doc.context.lookup(f, PDFDict).lookup(PDFName.of("T"))) ?? "",
  );
  return { pages: doc.getPageCount(), text: await pageTexts(bytes), outline, fields, links, title: doc.getTitle() };
}

/** Where links and bookmarks lead: explicit destinations, named ones (catalog /Dests or the /Names tree), and actions. */
class Destinations {
  private readonly pageIndex = new Map<string, number>();
  private named?: Map<string, PDFObject>;

  constructor(private readonly doc: PDFDocument) {
    doc.getPages().forEach((p, i) => this.pageIndex.set(p.ref.toString(), i));
  }

  target(dict: PDFDict): Link {
    const action = dict.lookupMaybe(PDFName.of("A"), PDFDict);
    if (!action) return this.dest(dict.get(PDFName.of("Dest")));
    const kind = nameOf(action.lookup(PDFName.of("S")));
    if (kind === "URI") return { uri: text(action.lookup(PDFName.of("URI"))) };
    if (kind === "GoTo") return this.dest(action.get(PDFName.of("D")));
    // GoToR and the rest lead out of the file: no page here.
    return {};
  }

  private dest(raw: PDFObject | undefined): Link {
    let d = this.doc.context.lookup(raw);
    const key = text(d) ?? nameOf(d);
    if (key !== undefined) d = this.doc.context.lookup(this.names().get(key));
    if (d instanceof PDFDict) d = this.doc.context.lookup(d.get(PDFName.of("D")));
    if (!(d instanceof PDFArray) || d.size() === 0) return {};
    const target = d.get(0);
    const page = target instanceof PDFRef ? this.pageIndex.get(target.toString()) : undefined;
    return { ...(page === undefined ? {} : { page }), ...(nameOf(d.get(1)) ? { view: nameOf(d.get(1)) } : {}) };
  }

  private names(): Map<string, PDFObject> {
    if (this.named) return this.named;
    const named = new Map<string, PDFObject>();
    const ctx = this.doc.context;
    const old = this.doc.catalog.lookupMaybe(PDFName.of("Dests"), PDFDict);
    for (const [k, v] of old?.entries() ?? []) named.set(k.decodeText(), v);
    const walk = (node: PDFObject | undefined, depth: number) => {
      if (!(node instanceof PDFDict) || depth > 32) return;
      const pairs = node.lookupMaybe(PDFName.of("Names"), PDFArray)?.asArray() ?? [];
      for (let i = 0; i + 1 < pairs.length; i += 2) named.set(text(ctx.lookup(pairs[i])) ?? "", pairs[i + 1]);
      for (const kid of node.lookupMaybe(PDFName.of("Kids"), PDFArray)?.asArray() ?? []) walk(ctx.lookup(kid), depth + 1);
    };
    walk(this.doc.catalog.lookupMaybe(PDFName.of("Names"), PDFDict)?.lookup(PDFName.of("Dests")), 0);
    this.named = named;
    return named;
  }
}

/** The page count pdf-lib reads. */
export async function pageCount(bytes: Uint8Array): Promise<number> {
  return (await load(bytes)).getPageCount();
}

/** Structure: pages, Info title, form fields (pdf-lib's form API), annotation subtypes, XMP presence. */
export async function pdfStructure(bytes: Uint8Array) {
  const doc = await load(bytes);
  const subtypes: string[] = [];
  for (const page of doc.getPages()) {
    for (const annot of page.node.Annots()?.asArray() ?? []) {
      const dict = doc.context.lookup(annot);
      subtypes.push(dict instanceof PDFDict ? (nameOf(dict.lookup(PDFName.of("Subtype"))) ?? "") : "");
    }
  }
  return {
    pages: doc.getPageCount(),
    title: doc.getTitle() ?? null,
    fields: doc.catalog.get(PDFName.of("AcroForm"))
      ? doc
          .getForm()
          .getFields()
          .map((f) => f.getName())
      : [],
    annotationSubtypes: subtypes.sort(),
    hasXmp: doc.catalog.get(PDFName.of("Metadata")) !== undefined,
  };
}

/** Whether the file is encrypted (its trailer names an /Encrypt dictionary). */
export async function isEncrypted(bytes: Uint8Array): Promise<boolean> {
  return (await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false })).isEncrypted;
}

function objects(doc: PDFDocument): PDFObject[] {
  return doc.context.enumerateIndirectObjects().map(([, o]) => o);
}

const typeOf = (o: PDFObject, key: string) => nameOf((o instanceof PDFRawStream ? o.dict : o instanceof PDFDict ? o : undefined)?.lookup(PDFName.of(key)));

/** Pixel sizes of the images embedded in a PDF (every image XObject, soft masks included). */
export async function embeddedImageSizes(bytes: Uint8Array): Promise<[number, number][]> {
  const doc = await load(bytes);
  return objects(doc)
    .filter((o): o is PDFRawStream => o instanceof PDFRawStream && typeOf(o, "Subtype") === "Image")
    .map((o) => [o.dict.lookup(PDFName.of("Width"), PDFNumber).asNumber(), o.dict.lookup(PDFName.of("Height"), PDFNumber).asNumber()]);
}

/** Font names embedded in a PDF (every /FontDescriptor with a font file). */
export async function embeddedFonts(bytes: Uint8Array): Promise<string[]> {
  const doc = await load(bytes);
  return objects(doc)
    .filter((o): o is PDFDict => o instanceof PDFDict && typeOf(o, "Type") === "FontDescriptor")
    .filter((d) => ["FontFile", "FontFile2", "FontFile3"].some((k) => d.get(PDFName.of(k)) !== undefined))
    .map((d) => nameOf(d.lookup(PDFName.of("FontName"))) ?? "");
}

// Image codecs' data holds no text; anything else pdf-lib cannot decode is an error, not a miss.
const IMAGE_FILTERS = new Set(["DCTDecode", "JPXDecode", "CCITTFaxDecode", "JBIG2Decode"]);

/**
 * Whether `value` is still written anywhere in the file: in any stream
 * (decoded) or any other object, as literal or hex string text. Redaction
 * must cut it out, not cover it.
 */
export async function streamsContain(bytes: Uint8Array, value: string): Promise<boolean> {
  const doc = await load(bytes);
  const hex = [...value].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
  const has = (s: string) => s.includes(value) || s.toLowerCase().replace(/\s/g, "").includes(hex);
  for (const o of objects(doc)) {
    if (!(o instanceof PDFRawStream)) {
      if (has(o.toString())) return true;
      continue;
    }
    const filters = o.dict.lookup(PDFName.of("Filter"));
    const names = filters instanceof PDFArray ? filters.asArray().map((f) => nameOf(f)) : [nameOf(filters)];
    if (names.some((n) => n !== undefined && IMAGE_FILTERS.has(n))) continue;
    const data = streamBytes(o);
    let s = "";
    for (let i = 0; i < data.length; i += 0x8000) s += String.fromCharCode(...data.subarray(i, i + 0x8000));
    if (has(s) || has(o.dict.toString())) return true;
  }
  return false;
}

/** The files of a ZIP output. */
export function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}
