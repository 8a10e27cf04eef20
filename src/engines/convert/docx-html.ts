import { Buffer } from "node:buffer";
import { reserveMemory } from "../../runtime/memory";
import mammoth from "mammoth";
import { docxBodyText } from "../docx/body-text";
import { docxPackageSizes, readDocxPackage, readDocxParts, storedDocx } from "../docx/package";
import { LABEL_MARK, writeListLabels } from "../docx/list-labels";
import { docxPageSetup, type PageSetup, pageCss } from "../docx/page-setup";
import { EngineError } from "../errors";

// DOCX through mammoth, which reads headings, paragraph styles, lists,
// tables, images and footnotes into semantic HTML (or raw text, or
// Markdown). Pictures become named assets the browser engine serves beside
// the markup, so the HTML stays small. Page size and margins come from the
// document's own w:sectPr as a CSS @page rule.

type MammothInput = Parameters<typeof mammoth.convertToHtml>[0];
interface MammothMarkdown {
  convertToMarkdown(input: MammothInput): Promise<{ value: string }>;
}

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

export const docxToMarkdown = (bytes: Uint8Array): Promise<string> =>
  guarded(bytes, async (input) => (await (mammoth as unknown as MammothMarkdown).convertToMarkdown(input)).value);

export interface DocxHtml {
  html: string;
  assets: Map<string, { data: Uint8Array; type: string }>;
  /** Whether the document stated its page size (then the markup's @page decides the paper). */
  hasPageSize: boolean;
}

const BASE_CSS = [
  "body{font-family:Calibri,Carlito,Arial,sans-serif;font-size:11pt;line-height:1.2}",
  "p{margin:0 0 8pt}",
  "table{border-collapse:collapse;margin:0 0 8pt}",
  "td,th{border:0.5pt solid #808080;padding:2pt 5pt;vertical-align:top}",
  "img{max-width:100%}",
  // Items that carry Word's own label (docx/list-labels.ts) show no browser marker.
  "li.wl{list-style:none}",
  "h1{font-size:16pt}h2{font-size:13pt}h3{font-size:12pt}",
].join("");

export async function docxToHtml(bytes: Uint8Array): Promise<DocxHtml> {
  const read: { setup: PageSetup | null } = { setup: null };
  const assets = new Map<string, { data: Uint8Array; type: string }>();
  // The page setup is read from the document part before the labels change it.
  const readSetupAndLabel = (files: Map<string, Uint8Array>) => {
    read.setup = docxPageSetup(new TextDecoder().decode(files.get("word/document.xml")));
    writeListLabels(files);
  };
  const body = await guarded(
    bytes,
    async (input) => {
      const result = await mammoth.convertToHtml(input, {
        convertImage: mammoth.images.imgElement(async (image) => {
          const ext = image.contentType.split("/")[1]?.replace(/[^a-z0-9]/gi, "") || "bin";
          const name = `image${assets.size + 1}.${ext}`;
          assets.set(name, { data: new Uint8Array(await image.readAsArrayBuffer()), type: image.contentType });
          return { src: name };
        }),
      });
      return result.value.replaceAll(`<li>${LABEL_MARK}`, '<li class="wl">').replaceAll(LABEL_MARK, "");
    },
    readSetupAndLabel,
  );
  const { setup } = read;
  const page = setup ? pageCss(setup) : "";
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${page}${BASE_CSS}</style></head><body>${body}</body></html>`;
  return { html, assets, hasPageSize: setup !== null };
}
