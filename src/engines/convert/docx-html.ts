import { Buffer } from "node:buffer";
import { reserveMemory } from "../../runtime/memory";
import mammoth from "mammoth";
import { docxBodyText } from "../docx/body-text";
import { checkDocxPackage, readDocxParts } from "../docx/package";
import { LABEL_MARK, withListLabels } from "../docx/list-labels";
import { docxPageSetup, pageCss } from "../docx/page-setup";
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

/** mammoth reads Node Buffers through its Node build and ArrayBuffers through its browser build; give both. */
function input(bytes: Uint8Array): MammothInput {
  const copy = bytes.slice();
  return { buffer: Buffer.from(copy.buffer), arrayBuffer: copy.buffer } as MammothInput;
}

const BASE_BYTES = 8 * 1024 * 1024;

/**
 * Runs a mammoth reading after the package passed its size checks (mammoth
 * inflates whole parts itself, ZIP bombs included) and the isolate's budget
 * was raised for it: the package unpacked, the document as a DOM (about ten
 * times its XML), and the output.
 */
async function guarded<T>(bytes: Uint8Array, work: () => Promise<T>): Promise<T> {
  const { documentXmlBytes } = checkDocxPackage(bytes);
  await reserveMemory(BASE_BYTES + 4 * bytes.byteLength + 12 * documentXmlBytes);
  try {
    return await work();
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError("corrupt", `The DOCX could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The document's own text by our independent reader (../docx), the yardstick of the DOCX pairs' quality_score. */
export function docxReferenceText(bytes: Uint8Array): string {
  return docxBodyText(readDocxParts(bytes, ["word/document.xml"]).get("word/document.xml") ?? "");
}

export const docxToText = (bytes: Uint8Array): Promise<string> => guarded(bytes, async () => (await mammoth.extractRawText(input(bytes))).value);

export const docxToMarkdown = (bytes: Uint8Array): Promise<string> =>
  guarded(bytes, async () => (await (mammoth as unknown as MammothMarkdown).convertToMarkdown(input(bytes))).value);

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
  const parts = readDocxParts(bytes, ["word/document.xml"]);
  const setup = docxPageSetup(parts.get("word/document.xml") ?? "");
  const assets = new Map<string, { data: Uint8Array; type: string }>();
  const body = await guarded(bytes, async () => {
    const result = await mammoth.convertToHtml(input(withListLabels(bytes)), {
      convertImage: mammoth.images.imgElement(async (image) => {
        const ext = image.contentType.split("/")[1]?.replace(/[^a-z0-9]/gi, "") || "bin";
        const name = `image${assets.size + 1}.${ext}`;
        assets.set(name, { data: new Uint8Array(await image.readAsArrayBuffer()), type: image.contentType });
        return { src: name };
      }),
    });
    return result.value.replaceAll(`<li>${LABEL_MARK}`, '<li class="wl">').replaceAll(LABEL_MARK, "");
  });
  const page = setup ? pageCss(setup) : "";
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${page}${BASE_CSS}</style></head><body>${body}</body></html>`;
  return { html, assets, hasPageSize: setup !== null };
}
