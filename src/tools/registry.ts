import { aiExtract } from "./ai-extract";
import { attachments } from "./attachments";
import { chainTool } from "./chain";
import { compareDocuments } from "./compare-documents";
import { compressPdf, compressPdfBatch } from "./compress-pdf";
import { convertDocument } from "./convert-document";
import { editMetadata } from "./edit-metadata";
import { formsFill } from "./forms-fill";
import { formsRead } from "./forms-read";
import type { Operation, ToolDef } from "./define";
import { htmlPreview } from "./html-preview";
import { htmlToPdf } from "./html-to-pdf";
import { imageCompress } from "./image-compress";
import { imageConvert } from "./image-convert";
import { imageResize } from "./image-resize";
import { mergePdf } from "./merge-pdf";
import { ocrPdf } from "./ocr-pdf";
import { organisePages } from "./organise-pages";
import { pageNumbers } from "./page-numbers";
import { pdfMetadata } from "./pdf-metadata";
import { pdfToMarkdown } from "./pdf-to-markdown";
import { pdfToXlsx } from "./pdf-to-xlsx";
import { pdfaValidate } from "./pdfa-validate";
import { protectPdf } from "./protect-pdf";
import { redactPii } from "./redact";
import { repairPdf } from "./repair-pdf";
import { signPdf } from "./sign-pdf";
import { splitPdf } from "./split-pdf";
import { unlockPdf } from "./unlock-pdf";
import { verifySignatures } from "./verify-signatures";
import { watermarkImage } from "./watermark-image";
import { watermarkText } from "./watermark-text";

/**
 * Every tool: the original API's, in its order, then ours. Routing, billing, the scope catalog and the
 * OpenAPI document all read this list; nothing else names a tool's path,
 * cost or operation key.
 */
export const TOOLS: readonly ToolDef[] = [
  htmlToPdf,
  htmlPreview,
  pdfToMarkdown,
  compressPdf,
  compressPdfBatch,
  mergePdf,
  splitPdf,
  organisePages,
  convertDocument,
  watermarkImage,
  watermarkText,
  aiExtract,
  redactPii,
  imageCompress,
  pdfMetadata,
  imageResize,
  compareDocuments,
  pdfaValidate,
  unlockPdf,
  protectPdf,
  pdfToXlsx,
  repairPdf,
  pageNumbers,
  imageConvert,
  editMetadata,
  attachments,
  formsRead,
  formsFill,
  signPdf,
  verifySignatures,
  ocrPdf,
  // Runs the tools above; given the list lazily, as it is being built here.
  chainTool(() => TOOLS),
] as unknown as readonly ToolDef[];

export interface ScopeEntry extends Operation {
  tool: string;
  method: string;
  path: string;
}

/** Each billable operation once (batch compress shares pdf.compress). */
export function scopeCatalog(): ScopeEntry[] {
  const seen = new Map<string, ScopeEntry>();
  for (const tool of TOOLS) {
    for (const op of tool.operations) {
      if (!seen.has(op.key)) seen.set(op.key, { ...op, tool: tool.id, method: tool.method.toUpperCase(), path: tool.path });
    }
  }
  return [...seen.values()];
}

export const OPERATION_KEYS: ReadonlySet<string> = new Set(scopeCatalog().map((s) => s.key));
