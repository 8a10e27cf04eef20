import { z } from "zod";
import { LIMITS } from "../config";
import { DEFAULT_OCR_LANGUAGE, isOcrLanguage, MAX_OCR_LANGUAGES, OCR_LANGUAGE_CODES, OCR_LANGUAGES, type OcrLanguage } from "../engines/ocr/languages";
import { searchablePdf } from "../engines/ocr/searchable/searchable";
import { ApiError } from "../errors";
import { derivedPdfName } from "../storage/outputs";
import { completedFields, completedJob, pdfBytesOf, pdfUpload415 } from "./common";
import { defineTool } from "./define";
import { formBool } from "./fields";
import { syntaxField } from "./organise-plan";
import { parsePageList, resolvePageList } from "./page-list";

// Beyond the original API contract (it has no such tool): scanned pages get
// an invisible text layer from OCR, so the PDF can be searched, selected and
// copied. docs/reference/pdf-ocr.md is the caller's page.

const ALLOWED = OCR_LANGUAGE_CODES.map((c) => `${c} (${OCR_LANGUAGES[c].name})`).join(", ");

/** A comma- or plus-separated list, repeated fields, or both ("eng+deu" as Tesseract writes it). */
const languagesField = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((raw, ctx): OcrLanguage[] => {
    const codes = [...new Set((Array.isArray(raw) ? raw : [raw ?? ""]).flatMap((s) => s.split(/[,+]/)).map((s) => s.trim().toLowerCase()))].filter(Boolean);
    if (!codes.length) return [DEFAULT_OCR_LANGUAGE];
    const unknown = codes.filter((c) => !isOcrLanguage(c));
    const fail = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    if (unknown.length) return fail(`Unknown language ${unknown.join(", ")}; use ${ALLOWED}.`);
    if (codes.length > MAX_OCR_LANGUAGES) return fail(`At most ${MAX_OCR_LANGUAGES} languages per call: each is a reading of every page.`);
    return codes as OcrLanguage[];
  })
  .meta({
    type: "string",
    description: `Languages of the text, ISO 639-2 codes: a comma-separated list or repeated fields, at most ${MAX_OCR_LANGUAGES}. Allowed: ${ALLOWED}. Default eng. With several, each page is read in each and every line is taken from the surest reading.`,
  });

export const ocrPdf = defineTool({
  id: "ocr-pdf",
  name: "OCR to searchable PDF",
  method: "post",
  path: "/api/v1/pdf/ocr",
  body: "multipart",
  summary:
    "Give scanned pages an invisible text layer from OCR, placed on the words of the picture, so the PDF can be searched and copied; the pages themselves are not changed (beyond the original API contract).",
  operations: [{ key: "pdf.ocr", name: "OCR to searchable PDF", credits: 40, access: "free-try" }],
  // Defaults fit: corrupt -> 422 unreadable_document, encrypted -> 422 password_protected, not a PDF -> 415, too many pages -> 422 too_many_pages.
  problems: ["already_searchable", "ocr_unavailable"],
  request: z.object({
    file: pdfUpload415(),
    languages: languagesField,
    force: formBool(false).meta({
      description:
        "Also read pages that already have text: the page as rendered (its text included) is read and the layer goes over it; the page's own text stays. Default false: those pages are left as they are.",
    }),
    pages: syntaxField(parsePageList, "The pages to consider: 1,3-5 · odd · even · -1 (last) · 2- (to the end). Default: every page.").optional(),
  }),
  response: z.object({
    ...completedJob,
    file_url: z.string(),
    pages: z.number().int().meta({ description: "Pages in the document." }),
    pages_ocred: z.array(z.number().int()).meta({ description: "1-based pages that were read by OCR and got a text layer." }),
    pages_skipped: z.array(z.number().int()).meta({ description: "1-based selected pages left as they were because they already have text (force=false)." }),
    languages: z.array(z.enum(OCR_LANGUAGE_CODES as [OcrLanguage, ...OcrLanguage[]])),
    word_count: z.number().int().meta({ description: "Words written into the text layers." }),
    mean_confidence: z.number().nullable().meta({ description: "Tesseract's mean word confidence over those words, 0..1; null when none was found." }),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const data = await pdfBytesOf(input.file);
    const result = await searchablePdf(data, {
      languages: input.languages,
      force: input.force,
      select: input.pages
        ? (count) => {
            const r = resolvePageList(input.pages ?? [], count, LIMITS.pdfPages);
            if (!r.ok) throw new ApiError("validation_failed", `pages: ${r.error}`, { errors: [{ field: "pages", message: r.error }] });
            return r.value;
          }
        : undefined,
    });
    const stored = await ctx.store({ filename: derivedPdfName(input.file.name, "ocr"), contentType: "application/pdf", data: result.pdf });
    return {
      body: {
        ...completedFields(ctx, started),
        file_url: stored.url,
        pages: result.pages,
        pages_ocred: result.ocred,
        pages_skipped: result.skipped,
        languages: input.languages,
        word_count: result.words,
        mean_confidence: result.meanConfidence === null ? null : Math.round(result.meanConfidence * 1000) / 1000,
      },
    };
  },
});
