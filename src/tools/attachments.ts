import { z } from "zod";
import {
  type AttachmentInfo,
  addAttachments,
  EXTRACT_MAX_BYTES,
  extractAttachments,
  listAttachments,
  RELATIONSHIPS,
  type Relationship,
} from "../engines/mupdf/edit/attachments";
import { zipFiles } from "../engines/zip";
import { ApiError } from "../errors";
import { derivedPdfName, pdfStem, safeFilename } from "../storage/outputs";
import { attachmentMime, servedMime } from "./attachment-mime";
import { pdfBytesOf, pdfUpload415 } from "./common";
import { defineTool, type ToolContext } from "./define";

const ACTIONS = ["list", "add", "extract"] as const;
const MAX_NAME = 255;

const asList = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** A field that may be sent once (for every attachment) or once per attachment, in order. */
const perAttachment = <T extends z.ZodType>(item: T) => z.preprocess(asList, z.array(item)).meta({ type: "array", items: { type: "string" } });

const relationship = z.preprocess(
  (v) => (typeof v === "string" ? (RELATIONSHIPS.find((r) => r.toLowerCase() === v.trim().toLowerCase()) ?? v) : v),
  z.enum(RELATIONSHIPS, { message: `Use one of: ${RELATIONSHIPS.join(", ")}.` }),
);

const attachmentOut = z.object({
  name: z.string(),
  size: z.number().int().nullable().meta({ description: "Bytes, as the PDF records them; null when it does not." }),
  mime_type: z.string().nullable(),
  description: z.string().nullable(),
  creation_date: z.string().nullable(),
  modification_date: z.string().nullable(),
  relationship: z.string().nullable().meta({ description: "The PDF/A-3 /AFRelationship, when the file is an associated file." }),
});

const shown = (a: AttachmentInfo) => ({
  name: a.name,
  size: a.size,
  mime_type: a.mimeType,
  description: a.description,
  creation_date: a.creationDate,
  modification_date: a.modificationDate,
  relationship: a.relationship,
});

/** The part's own name without any folder a client put in front of it. */
const baseName = (name: string): string => name.split(/[\\/]/).pop()?.trim() || "attachment";

/** One value for every attachment, or one each. */
function pick<T>(values: T[], index: number): T | undefined {
  return values.length === 1 ? values[0] : values[index];
}

const request = z
  .object({
    file: pdfUpload415(),
    action: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(ACTIONS)),
    attachments: z
      .preprocess(asList, z.array(z.custom<File>((v) => v instanceof File, "Each attachment must be a file part.")))
      .meta({ type: "array", items: { type: "string", format: "binary" } }),
    description: perAttachment(z.string().max(4000)),
    relationship: perAttachment(relationship),
    name: z.string().min(1).max(MAX_NAME).optional().meta({ description: "extract: the attachment to return; without it every attachment, as a ZIP." }),
  })
  .superRefine((v, ctx) => {
    if (v.action !== "add") return;
    const n = v.attachments.length;
    if (n === 0)
      ctx.addIssue({
        code: "custom",
        path: ["attachments"],
        message: "action=add needs at least one attachments file part.",
        params: { code: "attachments_required" },
      });
    for (const field of ["description", "relationship"] as const) {
      const given = v[field].length;
      if (given > 1 && given !== n)
        ctx.addIssue({ code: "custom", path: [field], message: `Give ${field} once for every attachment or once for each of the ${n}.` });
    }
    const names = v.attachments.map((f) => baseName(f.name));
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice) ctx.addIssue({ code: "custom", path: ["attachments"], message: `Two attachments are named '${twice}'.` });
    const long = names.find((name) => name.length > MAX_NAME);
    if (long)
      ctx.addIssue({ code: "custom", path: ["attachments"], message: `The attachment name '${long.slice(0, 40)}…' is longer than ${MAX_NAME} characters.` });
  });

type Input = z.output<typeof request>;

async function add(ctx: ToolContext, input: Input, pdf: Uint8Array) {
  const files = await Promise.all(
    input.attachments.map(async (f, i) => ({
      name: baseName(f.name),
      mimeType: attachmentMime(f),
      data: new Uint8Array(await f.arrayBuffer()),
      description: pick(input.description, i),
      relationship: pick<Relationship>(input.relationship, i),
    })),
  );
  const { data, attachments } = await addAttachments(pdf, files);
  const stored = await ctx.store({ filename: derivedPdfName(input.file.name, "attachments"), contentType: "application/pdf", data });
  return { file_url: stored.url, url: stored.url, attachments: attachments.map(shown) };
}

async function extract(ctx: ToolContext, input: Input, pdf: Uint8Array) {
  const { files, names, tooLarge } = await extractAttachments(pdf, input.name);
  if (tooLarge)
    throw new ApiError("payload_too_large", `The attachments asked for decode to more than ${EXTRACT_MAX_BYTES / 1024 / 1024} MiB; extract them one by one.`);
  if (input.name !== undefined && files.length === 0) {
    const known = names.map((n) => `'${n}'`).join(", ") || "none";
    throw new ApiError("attachment_not_found", `The PDF has no attachment named '${input.name}' (it has: ${known}).`);
  }
  if (files.length === 0) throw new ApiError("attachment_not_found", "The PDF has no attachments.");
  const single = input.name !== undefined ? files[0] : null;
  const stored = single
    ? await ctx.store({ filename: safeFilename(single.name, "attachment"), contentType: servedMime(single.mimeType), data: single.data })
    : await ctx.store({
        filename: `${pdfStem(input.file.name)}_attachments.zip`,
        contentType: "application/zip",
        data: zipFiles(files.map((f) => ({ name: safeFilename(f.name, "attachment"), data: f.data }))),
      });
  const sizes = files.map((f) => ({ name: f.name, size: f.data.byteLength, mime_type: f.mimeType }));
  return { file_url: stored.url, url: stored.url, extracted: sizes };
}

export const attachments = defineTool({
  id: "attachments",
  name: "Attachments",
  method: "post",
  path: "/api/v1/pdf/attachments",
  body: "multipart",
  summary: "List, add (with PDF/A-3 relationships) or extract a PDF's embedded file attachments. Beyond the original API contract.",
  // One price for every action: reading a PDF costs what the metadata reader costs, and one scope covers the tool.
  operations: [{ key: "pdf.attachments", name: "Attachments", credits: 10, access: "free-try" }],
  problems: ["attachments_required", "attachment_not_found"],
  request,
  response: z.object({
    job_id: z.string(),
    status: z.literal("completed"),
    success: z.boolean(),
    action: z.enum(ACTIONS),
    file_url: z.string().optional().meta({ description: "add: the PDF with its new attachments; extract: the attachment, or a ZIP of all of them." }),
    url: z.string().optional().meta({ description: "The same link as file_url." }),
    attachments: z.array(attachmentOut).optional().meta({ description: "list and add: every attachment now in the PDF." }),
    extracted: z
      .array(z.object({ name: z.string(), size: z.number().int(), mime_type: z.string().nullable() }))
      .optional()
      .meta({ description: "extract: the files returned." }),
    credits_charged: z.number().int(),
  }),
  async handler(ctx, input) {
    const pdf = await pdfBytesOf(input.file);
    const head = { job_id: ctx.jobId, status: "completed", success: true, action: input.action };
    if (input.action === "list") return { body: { ...head, attachments: (await listAttachments(pdf)).map(shown) } };
    if (input.action === "add") return { body: { ...head, ...(await add(ctx, input, pdf)) } };
    return { body: { ...head, ...(await extract(ctx, input, pdf)) } };
  },
});
