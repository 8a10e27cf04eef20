import { Buffer } from "node:buffer";
import { reserveMemory } from "../../runtime/memory";
import mammoth from "mammoth";
import { docxBodyText } from "../docx/body-text";
import { docxPackageSizes, readDocxPackage, readDocxParts, storedDocx } from "../docx/package";
import { LABEL_MARK, labelNumberedParagraphs } from "../docx/list-labels";
import { markPageBreaks } from "../docx/page-breaks";
import { readDocxStyles, type TextSizes, textSizes } from "../docx/styles";
import { docxPageSetup, type PageSetup, pageCss } from "../docx/page-setup";
import { EngineError } from "../errors";
import { docxHtmlToMarkdown } from "./docx-markdown";

// DOCX through mammoth, which reads headings, paragraph styles, lists,
// tables, images and footnotes into semantic HTML (or raw text; Markdown is
// written from that HTML). Pictures become named assets the browser engine
// serves beside the markup, so the HTML stays small. Page size and margins come from the
// document's own w:sectPr as a CSS @page rule.

type MammothInput = Parameters<typeof mammoth.convertToHtml>[0];

/** mammoth reads Node Buffers through its Node build and ArrayBuffers through its browser build; give both (views of one copy). */
function mammothInput(zip: Uint8Array): MammothInput {
  const own = zip.byteOffset === 0 && zip.byteLength === zip.buffer.byteLength ? zip : zip.slice();
  return { buffer: Buffer.from(own.buffer), arrayBuffer: own.buffer } as MammothInput;
}

const BASE_BYTES = 8 * 1024 * 1024;

/**
 * Runs a mammoth reading on a package this code has already unpacked within
 * its bounds (docx/package.ts): mammoth's JSZip inflates whole parts before
 * it compares any length, so it is given the checked parts again as a
 * stored ZIP, where inflating is a copy. The isolate's budget is raised
 * first, from the directory's declared sizes: the upload, the parts, their
 * stored copy, and the document as a DOM (about ten times its XML).
 * `prepare` sees (and may rewrite) the parts before they are stored.
 */
async function guarded<T>(bytes: Uint8Array, work: (input: MammothInput) => Promise<T>, prepare?: (files: Map<string, Uint8Array>) => void): Promise<T> {
  const sizes = docxPackageSizes(bytes);
  await reserveMemory(BASE_BYTES + bytes.byteLength + 2 * sizes.inflatedBytes + 12 * sizes.documentXmlBytes);
  const { files } = readDocxPackage(bytes);
  prepare?.(files);
  const stored = storedDocx(files);
  // The stored ZIP holds copies: the inflated parts can go before mammoth starts.
  files.clear();
  try {
    return await work(mammothInput(stored));
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError("corrupt", `The DOCX could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The document's own text by our independent reader (../docx), the yardstick of the DOCX pairs' quality_score. */
export function docxReferenceText(bytes: Uint8Array): string {
  return docxBodyText(readDocxParts(bytes, ["word/document.xml"]).get("word/document.xml") ?? "");
}

export const docxToText = (bytes: Uint8Array): Promise<string> => guarded(bytes, async (input) => (await mammoth.extractRawText(input)).value);

/** mammoth's HTML (pictures as data URIs) written as GitHub Markdown by docx-markdown.ts: mammoth's own Markdown writer has no tables. */
export const docxToMarkdown = (bytes: Uint8Array): Promise<string> =>
  guarded(bytes, async (input) => docxHtmlToMarkdown((await mammoth.convertToHtml(input)).value));

export interface DocxHtml {
  html: string;
  assets: Map<string, { data: Uint8Array; type: string }>;
  /** Whether the document stated its page size (then the markup's @page decides the paper). */
  hasPageSize: boolean;
}

const BASE_CSS = [
  "body{font-family:Calibri,Carlito,Arial,sans-serif;line-height:1.2}",
  "p{margin:0 0 8pt}",
  "table{border-collapse:collapse;margin:0 0 8pt}",
  "td,th{border:0.5pt solid #808080;padding:2pt 5pt;vertical-align:top}",
  "img{max-width:100%}",
  // Items that carry Word's own label (docx/list-labels.ts) show no browser marker.
  "li.wl{list-style:none}",
  "h1,h2,h3,h4,h5,h6{margin:12pt 0 6pt}",
  // Word's page breaks (docx/page-breaks.ts), which mammoth's style map makes <hr class="pb">.
  "hr.pb{break-before:page;border:0;margin:0;height:0}",
].join("");

/** The body's and headings' sizes from the document's styles (docx/styles.ts). */
const sizeCss = ({ body, headings }: TextSizes): string => `body{font-size:${body}pt}${headings.map((pt, i) => `h${i + 1}{font-size:${pt}pt}`).join("")}`;

const PAGE_BREAK = '<hr class="pb" />';
const STYLE_MAP = ["br[type='page'] => hr.pb"];

/**
 * A break that opens a paragraph or heading goes before it: left inside, the
 * browser would close the paragraph at the <hr> and keep an empty one on the
 * page before. A break before everything starts no page.
 */
function placeBreaks(html: string): string {
  return html
    .replace(/<(p|h[1-6])((?:\s[^>]*)?)><hr class="pb" \/>/g, `${PAGE_BREAK}<$1$2>`)
    .replace(/<p><\/p>/g, "")
    .replace(/^(?:<hr class="pb" \/>)+/, "");
}

export async function docxToHtml(bytes: Uint8Array): Promise<DocxHtml> {
  const read: { setup: PageSetup | null; sizes: TextSizes | null } = { setup: null, sizes: null };
  const assets = new Map<string, { data: Uint8Array; type: string }>();
  // The page setup is read from the document part before the labels and breaks change it.
  const prepare = (files: Map<string, Uint8Array>) => {
    const decode = (name: string) => {
      const part = files.get(name);
      return part ? new TextDecoder().decode(part) : undefined;
    };
    let document = decode("word/document.xml") ?? "";
    const styles = readDocxStyles(decode("word/styles.xml"));
    read.setup = docxPageSetup(document);
    read.sizes = textSizes(styles);
    const numbering = decode("word/numbering.xml");
    if (numbering) document = labelNumberedParagraphs(document, numbering);
    files.set("word/document.xml", new TextEncoder().encode(markPageBreaks(document, styles)));
  };
  const body = await guarded(
    bytes,
    async (input) => {
      const result = await mammoth.convertToHtml(input, {
        styleMap: STYLE_MAP,
        convertImage: mammoth.images.imgElement(async (image) => {
          const ext = image.contentType.split("/")[1]?.replace(/[^a-z0-9]/gi, "") || "bin";
          const name = `image${assets.size + 1}.${ext}`;
          assets.set(name, { data: new Uint8Array(await image.readAsArrayBuffer()), type: image.contentType });
          return { src: name };
        }),
      });
      return placeBreaks(result.value.replaceAll(`<li>${LABEL_MARK}`, '<li class="wl">').replaceAll(LABEL_MARK, ""));
    },
    prepare,
  );
  const { setup, sizes } = read;
  const page = setup ? pageCss(setup) : "";
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${page}${BASE_CSS}${sizeCss(sizes ?? textSizes(readDocxStyles(undefined)))}</style></head><body>${body}</body></html>`;
  return { html, assets, hasPageSize: setup !== null };
}
