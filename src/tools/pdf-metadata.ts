import { z } from "zod";
import { readDocxFacts } from "../engines/docx/metadata";
import { readPdfFacts } from "../engines/mupdf/inspect/metadata";
import { loadMupdf } from "../engines/mupdf/core/loader";
import type { DocumentFacts } from "../engines/text/facts";
import { readTextFacts } from "../engines/text/plain";
import { defineTool } from "./define";
import { upload } from "./fields";

const FORMATS = { ".pdf": "pdf", ".docx": "docx", ".txt": "txt" } as const;
type Format = (typeof FORMATS)[keyof typeof FORMATS];

function formatOf(name: string): Format {
  const lower = name.toLowerCase();
  for (const [ext, format] of Object.entries(FORMATS)) if (lower.endsWith(ext)) return format;
  return "txt"; // unreachable: the upload rule admits only these extensions
}

async function readFacts(format: Format, bytes: Uint8Array): Promise<DocumentFacts> {
  if (format === "pdf") return readPdfFacts(await loadMupdf(), bytes);
  if (format === "docx") return readDocxFacts(bytes);
  return readTextFacts(bytes);
}

export const pdfMetadata = defineTool({
  id: "pdf-metadata",
  name: "PDF metadata",
  method: "post",
  path: "/api/v1/analyze/metadata",
  body: "multipart",
  summary: "Read metadata and counts from a PDF, DOCX or TXT document.",
  operations: [{ key: "analyze.metadata", name: "PDF metadata", credits: 10, access: "free-try" }],
  // Metadata on a corrupt document is a 500 (as problem+json; docs/reference/errors.md).
  engineErrors: { corrupt: "engine_failed" },
  request: z.object({ file: upload({ extensions: [".pdf", ".docx", ".txt"], wrongType: "unsupported_media_type" }) }),
  response: z.object({
    success: z.boolean(),
    metadata: z.object({
      pages: z.number().int(),
      title: z.string().nullable(),
      author: z.string().nullable(),
      subject: z.string().nullable(),
      keywords: z.array(z.string()),
      is_encrypted: z.boolean(),
      has_images: z.boolean(),
      image_count: z.number().int(),
      word_count: z.number().int(),
      character_count: z.number().int().meta({ description: "Characters other than whitespace." }),
      creation_date: z.string().nullable().meta({ description: "ISO-8601 without zone, wall-clock time as the document records it." }),
      modification_date: z.string().nullable(),
      language: z.null(),
    }),
    info: z.object({
      file_size: z.number().int(),
      format: z.string(),
      filename: z.string(),
      processing_time_ms: z.number().int(),
    }),
    credits_charged: z.number().int(),
  }),
  async handler(_ctx, input) {
    const started = performance.now();
    const format = formatOf(input.file.name);
    const facts = await readFacts(format, new Uint8Array(await input.file.arrayBuffer()));
    return {
      body: {
        success: true,
        metadata: {
          pages: facts.pages,
          title: facts.title,
          author: facts.author,
          subject: facts.subject,
          keywords: facts.keywords,
          is_encrypted: facts.isEncrypted,
          has_images: facts.imageCount > 0,
          image_count: facts.imageCount,
          word_count: facts.text.words,
          character_count: facts.text.characters,
          creation_date: facts.creationDate,
          modification_date: facts.modificationDate,
          language: null,
        },
        info: { file_size: input.file.size, format, filename: input.file.name, processing_time_ms: Math.round(performance.now() - started) },
      },
    };
  },
});
