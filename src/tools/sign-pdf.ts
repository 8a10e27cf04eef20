import { z } from "zod";
import { certificateSummary } from "../engines/signatures/cms-verify";
import { CertificateError, readPkcs12 } from "../engines/signatures/pkcs12";
import { type Certify, signPdf as signDocument } from "../engines/signatures/sign";
import { ApiError, type ErrorCode } from "../errors";
import { derivedPdfName } from "../storage/outputs";
import { completedFields, completedJob, pdfBytesOf, pdfUpload415 } from "./common";
import { defineTool } from "./define";
import { formInt, upload } from "./fields";
import { certificateSummarySchema } from "./signer-schema";

// Beyond the original API contract (issue #33): a PAdES B-B signature with
// the caller's PKCS#12. docs/reference/pdf-sign.md is the caller's page.

const CERTIFY: Record<string, Certify> = { none: 0, no_changes: 1, form_filling: 2, annotations: 3 };
const CERTIFY_NAMES = Object.keys(CERTIFY) as [string, ...string[]];
const MAX_TEXT = 500;

const CERTIFICATE_CODES: Record<CertificateError["kind"], ErrorCode> = {
  password_incorrect: "certificate_password_incorrect",
  invalid: "certificate_invalid",
  unsupported: "certificate_unsupported",
};

const rectField = z
  .string()
  .optional()
  .transform((raw, ctx): [number, number, number, number] | undefined => {
    if (raw === undefined) return undefined;
    const parts = raw
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) {
      ctx.addIssue({ code: "custom", message: 'rect is "x,y,width,height" in points from the lower-left corner of the page, e.g. "36,36,200,60".' });
      return z.NEVER;
    }
    const [x, y, w, h] = parts;
    if (w < 10 || h < 10 || w > 14_400 || h > 14_400 || x < 0 || y < 0) {
      ctx.addIssue({ code: "custom", message: "rect: x and y must be at least 0, width and height between 10 and 14400 points." });
      return z.NEVER;
    }
    return [x, y, w, h];
  })
  .meta({
    type: "string",
    description:
      'The visible signature box, "x,y,width,height" in points (1/72 in) from the lower-left corner of the page. Without it the signature is invisible.',
  });

const text = (description: string) => z.string().max(MAX_TEXT).optional().meta({ description });

const request = z
  .object({
    file: pdfUpload415(),
    certificate: upload().meta({ description: "The signer's PKCS#12 file (.p12/.pfx) with its private key and certificate. Never stored or logged." }),
    certificate_password: z.string().max(1000).optional().default("").meta({ description: "The PKCS#12 file's password." }),
    page: formInt({ min: 1, max: 100_000 })
      .optional()
      .default(1)
      .meta({ type: "integer", description: "The page (from 1) that carries the signature widget." }),
    rect: rectField,
    text: z
      .string()
      .max(MAX_TEXT)
      .optional()
      .meta({ description: "Lines shown in the visible box, separated by newlines. By default: signer, date, reason, location." }),
    reason: text("Why the document is signed (/Reason)."),
    location: text("Where it was signed (/Location)."),
    contact_info: text("How to reach the signer (/ContactInfo)."),
    certify: z
      .preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(CERTIFY_NAMES))
      .optional()
      .default("none")
      .meta({
        type: "string",
        enum: CERTIFY_NAMES,
        description:
          "Make this a certification signature (DocMDP) that allows: no_changes (P=1), form_filling and signing (P=2), also annotations (P=3). Only for the first signature of a document.",
      }),
  })
  .superRefine((i, ctx) => {
    if (i.text !== undefined && i.rect === undefined)
      ctx.addIssue({ code: "custom", path: ["text"], message: "text needs rect: an invisible signature shows no text." });
  });

export const signPdf = defineTool({
  id: "sign-pdf",
  name: "Sign PDF",
  method: "post",
  path: "/api/v1/pdf/sign",
  body: "multipart",
  summary:
    "Sign a PDF with your PKCS#12 certificate: a PAdES B-B signature (ETSI.CAdES.detached, SHA-256) appended as an incremental update, visible or invisible, optionally certifying (DocMDP). Beyond the original API contract.",
  operations: [{ key: "pdf.sign", name: "Sign PDF", credits: 20, access: "login" }],
  problems: ["certificate_password_incorrect", "certificate_invalid", "certificate_unsupported"],
  request,
  response: z.object({
    ...completedJob,
    file_url: z.string(),
    field_name: z.string(),
    pades_level: z.literal("B-B"),
    sub_filter: z.literal("ETSI.CAdES.detached"),
    digest_algorithm: z.literal("SHA-256"),
    signature_algorithm: z.enum(["RSA PKCS#1 v1.5 with SHA-256", "ECDSA with SHA-256"]),
    signed_at: z.string().meta({ description: "The time written into the signature dictionary's /M (PAdES puts no signing-time inside the CMS)." }),
    visible: z.boolean(),
    page: z.number().int(),
    certification: z.enum(CERTIFY_NAMES),
    signer: certificateSummarySchema,
    byte_range: z.array(z.number().int()).length(4),
    rewritten: z.boolean().meta({ description: "The input was damaged and was rewritten before signing (its earlier signatures, if any, no longer verify)." }),
    warnings: z
      .array(z.object({ code: z.enum(["certificate_expired", "certificate_not_yet_valid"]), message: z.string() }))
      .meta({ description: "Signed anyway; verifiers will reject or flag the signature for these." }),
    pages: z.number().int(),
  }),
  async handler(ctx, input) {
    const started = performance.now();
    const data = await pdfBytesOf(input.file);
    let signer: Awaited<ReturnType<typeof readPkcs12>>;
    try {
      signer = await readPkcs12(new Uint8Array(await input.certificate.arrayBuffer()), input.certificate_password);
    } catch (err) {
      if (err instanceof CertificateError)
        throw new ApiError(CERTIFICATE_CODES[err.kind], err.message, { errors: [{ field: "certificate", message: err.message }] });
      throw err;
    }
    const now = new Date();
    const cert = signer.certificate;
    const warnings: { code: "certificate_expired" | "certificate_not_yet_valid"; message: string }[] = [];
    if (cert.notAfter.value < now) warnings.push({ code: "certificate_expired", message: `The certificate expired on ${cert.notAfter.value.toISOString()}.` });
    if (cert.notBefore.value > now)
      warnings.push({ code: "certificate_not_yet_valid", message: `The certificate is valid only from ${cert.notBefore.value.toISOString()}.` });
    const lines = input.text?.split(/\r?\n/).slice(0, 20) ?? null;
    const outcome = await signDocument(data, {
      signer,
      page: input.page - 1,
      rect: input.rect ?? null,
      lines,
      reason: input.reason,
      location: input.location,
      contactInfo: input.contact_info,
      certify: CERTIFY[input.certify],
      now,
    });
    const stored = await ctx.store({ filename: derivedPdfName(input.file.name, "signed"), contentType: "application/pdf", data: outcome.data });
    return {
      body: {
        ...completedFields(ctx, started),
        file_url: stored.url,
        field_name: outcome.field,
        pades_level: "B-B",
        sub_filter: "ETSI.CAdES.detached",
        digest_algorithm: "SHA-256",
        signature_algorithm: signer.kind === "rsa" ? "RSA PKCS#1 v1.5 with SHA-256" : "ECDSA with SHA-256",
        signed_at: new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString(),
        visible: input.rect !== undefined,
        page: input.page,
        certification: input.certify,
        signer: certificateSummary(cert),
        byte_range: outcome.byteRange,
        rewritten: outcome.rewritten,
        warnings,
        pages: outcome.pages,
      },
    };
  },
});
